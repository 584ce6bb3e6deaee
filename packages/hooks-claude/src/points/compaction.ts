// PreCompact and PostCompact (claude-code-hook-events.md) on `compaction/pre` and `compaction/post`.
// Matcher subject `trigger`: `manual` for `/compact` (and `ctx.compact()`), `auto` for the threshold and
// for a provider's "context too long". PreCompact: a block (exit 2, JSON `decision: "block"`) stops the
// compaction with `PreCompact hook blocked the compaction: [<command>]: <stderr>`; plain stdout is
// appended to the summariser's instructions. PostCompact: plain stdout is shown with the `/compact` result;
// SessionStart `compact` follows (the compactor emits `agent/session-start` after this seam).
import type { Agent } from '@tack/agent'
import type { PostCompactInfo, PostCompactResult, PreCompactDecision, PreCompactInfo } from '@tack/compaction'
import type { ClaudeBridge } from '../bridge.ts'
import { blockingMessages, type HandlerRun } from '../handler-runs.ts'

const triggerOf = (trigger: PreCompactInfo['trigger']) => (trigger === 'manual' ? 'manual' : 'auto')

export async function onPreCompact(
  bridge: ClaudeBridge,
  agent: Agent,
  info: PreCompactInfo,
  next: () => Promise<PreCompactDecision>,
): Promise<PreCompactDecision> {
  const trigger = triggerOf(info.trigger)
  const runs: HandlerRun[] = []
  const outcome = await bridge.runPoint(
    {
      point: 'PreCompact',
      agent,
      fields: { trigger, custom_instructions: info.instructions ?? null },
      subjects: [trigger],
      signal: AbortSignal.any([info.signal, bridge.state(agent).controller.signal]),
    },
    runs,
  )
  if (outcome.decision === 'deny') {
    const why = blockingMessages(runs, outcome.reason || 'blocked by a PreCompact hook').join('\n')
    return { action: 'block', reason: `PreCompact hook blocked the compaction: ${why}` }
  }
  const downstream = await next()
  if (downstream.action === 'block' || outcome.plainStdout.length === 0) return downstream
  return {
    action: 'proceed',
    additionalInstructions: [...(downstream.additionalInstructions ?? []), ...outcome.plainStdout],
  }
}

export async function onPostCompact(
  bridge: ClaudeBridge,
  agent: Agent,
  info: PostCompactInfo,
  next: () => Promise<PostCompactResult>,
): Promise<PostCompactResult> {
  const trigger = triggerOf(info.trigger)
  const outcome = await bridge.runPoint({
    point: 'PostCompact',
    agent,
    fields: { trigger, compact_summary: info.summary },
    subjects: [trigger],
    signal: bridge.state(agent).controller.signal,
  })
  const downstream = await next()
  if (outcome.plainStdout.length === 0) return downstream
  return { notices: [...downstream.notices, ...outcome.plainStdout] }
}
