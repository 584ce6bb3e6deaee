// The seams around one compaction (35-compaction.md CP-6; docs/decisions/0170-hook-event-seams.md):
// `compaction/pre` may add to the summariser's instructions or block the compaction, `compaction/post`
// sees the summary once it replaced the region (before `agent/session-start` fires with `compact`).
import type { Agent } from '@tack/agent'
import type { Waterfall } from '@tack/kernel'
import type { CompactionTrigger } from './log-events.ts'

/** A compaction about to run: something is there to summarise, nothing is logged yet. */
export interface PreCompactInfo {
  readonly trigger: CompactionTrigger
  /** What the person asked the summary to focus on (`/compact keep the API decisions`), if anything. */
  readonly instructions?: string
  readonly signal: AbortSignal
}

/**
 * What `compaction/pre` decides: run, with lines appended to the summariser's instructions, or do not
 * compact, with `reason` for the person.
 */
export type PreCompactDecision =
  | { readonly action: 'proceed'; readonly additionalInstructions?: readonly string[] }
  | { readonly action: 'block'; readonly reason: string }

/** A compaction that replaced the region `fromSeq..toSeq` with `summary`. */
export interface PostCompactInfo {
  readonly trigger: CompactionTrigger
  readonly summary: string
  readonly fromSeq: number
  readonly toSeq: number
}

/** What `compaction/post` listeners give back: lines shown with the compaction's result (`/compact`). */
export interface PostCompactResult {
  readonly notices: readonly string[]
}

declare module 'cordis' {
  interface Events {
    /**
     * @mode waterfall — before a compaction (manual, automatic or after "context too long"), once there is
     * something to summarise. Result: `proceed` (default, no extra instructions) runs it with its
     * `additionalInstructions` after the person's; `block` ends it unapplied, nothing logged, `reason`
     * returned as the compaction's outcome.
     */
    'compaction/pre': Waterfall<[agent: Agent, info: PreCompactInfo], PreCompactDecision>
    /**
     * @mode waterfall — after a compaction replaced the region (its `compact/end` is flushed) and before
     * `agent/session-start` fires with `compact`. Result: notices shown with the compaction's result;
     * default none. A throwing listener is reported and its notices lost; the compaction stands.
     */
    'compaction/post': Waterfall<[agent: Agent, info: PostCompactInfo], PostCompactResult>
  }
}
