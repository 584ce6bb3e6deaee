// Stop (40-hooks.md B7) on `agent/turn-continuation`, top-level agents only. Any block (JSON `block`,
// exit 2, or Stop `additionalContext`) forces one more step, steering with the joined reasons (or a
// generic line); `continue: false` stops the turn, beating blocks. `stop_hook_active` is true once the
// turn has been continued (the seam's `continuations`, AL-16). After `maxConsecutiveStopBlocks` forced
// continues in a row the next block is overridden and the turn stops, with a warning; the count
// resets at turn start and on any check that does not block.
import type { Agent, ContinuationDecision, ContinuationInfo } from '@tack/agent'
import type { ClaudeBridge } from '../bridge.ts'
import { lastAssistantText } from '../payload.ts'
import { HOOKS_CLAUDE_SOURCE } from '../protocol.ts'

/** The steering line of a block that gave no reason. */
export const GENERIC_STOP_FEEDBACK = 'A Stop hook asked you to keep going before finishing.'

export async function onStop(
  bridge: ClaudeBridge,
  agent: Agent,
  info: ContinuationInfo,
  next: () => Promise<ContinuationDecision>,
): Promise<ContinuationDecision> {
  if (agent.parent) return next()
  const st = bridge.state(agent)
  if (st.stopGuard.turn !== info.turn) st.stopGuard = { turn: info.turn, consecutive: 0 }
  const last = lastAssistantText(agent.session.events())
  const outcome = await bridge.runPoint({
    point: 'Stop',
    agent,
    fields: {
      stop_hook_active: info.continuations > 0,
      ...(last !== undefined ? { last_assistant_message: last } : {}),
      // tack has no background tasks or session crons a hook could see (README "Differences").
      background_tasks: [],
      session_crons: [],
    },
    signal: st.turnSignal(agent),
  })
  if (outcome.stop) {
    st.stopGuard.consecutive = 0
    return { action: 'stop' }
  }
  const reasons = [
    ...(outcome.decision === 'deny' && outcome.reason ? [outcome.reason] : []),
    ...outcome.contexts,
  ]
  if (outcome.decision !== 'deny' && outcome.contexts.length === 0) {
    st.stopGuard.consecutive = 0
    return next()
  }
  if (st.stopGuard.consecutive >= bridge.settings.maxConsecutiveStopBlocks) {
    bridge.warn(
      `Stop hooks blocked ${st.stopGuard.consecutive} times in a row (maxConsecutiveStopBlocks); this block is overridden and the turn ends`,
    )
    st.stopGuard.consecutive = 0
    return { action: 'stop' }
  }
  st.stopGuard.consecutive++
  const text = reasons.join('\n\n')
  // Steering attributed to the bridge (issue 11.3), in Claude Code's words.
  return {
    action: 'continue',
    reason: text ? `Stop hook feedback:\n${text}` : GENERIC_STOP_FEEDBACK,
    source: HOOKS_CLAUDE_SOURCE,
  }
}
