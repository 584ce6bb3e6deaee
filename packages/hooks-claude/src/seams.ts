// The bridge's own seam (40-hooks.md B3): each point's run of settings hooks is wrapped in the waterfall
// `hooks-claude/point`, raised even with no sources, so the mod host's `classic.*` events can surround
// it (65-mod-host.md).
import type { MergedHookOutcome } from '@tack/hook-protocol'
import type { Waterfall } from '@tack/kernel'
import type { ClaudePayload, ClaudePoint } from './protocol.ts'

declare module 'cordis' {
  interface Events {
    /**
     * @mode waterfall — around one point's run of Claude Code hooks. Arguments: the point and its Claude
     * payload (exactly what hooks get on stdin). Result: the merged outcome of the hooks (A6), which the
     * bridge maps onto the tack seam; `next()` runs the matching hooks (serially, in config order). A
     * listener may answer without `next()` (no hook runs) or change the outcome `next()` returned.
     */
    'hooks-claude/point': Waterfall<[point: ClaudePoint, payload: ClaudePayload], MergedHookOutcome>
  }
}
