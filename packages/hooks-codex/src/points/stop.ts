// Stop (40-hooks.md C2, C5, B7's guard) on `agent/turn-continuation` (waterfall), top-level agents only
// (a subagent's end is Codex's SubagentStop, not run here). JSON or nothing: plain stdout fails the
// hook. A block (`decision: "block"` with a reason, or exit 2 with stderr) continues the turn with the
// reasons joined by a blank line as the next prompt; `continue:false` from any hook wins over blocks and
// stops. `stop_hook_active` is true after a forced continuation in this turn. After
// `maxConsecutiveStopBlocks` forced continuations in a row the next block is overridden (warned) and
// the turn stops; the count resets at each turn and on any check that did not block.
import type { Agent, ContinuationDecision, ContinuationInfo } from '@tack/agent'
import type { Bridge } from '../bridge.ts'
import { lastAssistantText, stopPayload } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'
import { turnSignalOf } from '../turn-signal.ts'

export function installStop(b: Bridge): void {
  const streaks = new WeakMap<Agent, { turn: number; blocks: number }>()

  b.ctx.on(
    'agent/turn-continuation',
    async (
      agent: Agent,
      info: ContinuationInfo,
      next: () => Promise<ContinuationDecision>,
    ): Promise<ContinuationDecision> => {
      if (agent.parent) return next()
      const hooks = b.registry.runnable()
      if (selectHooks(hooks, 'Stop', []).length === 0) return next()
      const signal = turnSignalOf(b, agent)
      let streak = streaks.get(agent)
      if (!streak || streak.turn !== info.turn) streaks.set(agent, (streak = { turn: info.turn, blocks: 0 }))
      const run = await runPoint(b.runner, hooks, {
        point: 'Stop',
        agent,
        subjects: [],
        payload: stopPayload(
          b.payloadContext(agent, info.turn),
          info.continuations > 0,
          lastAssistantText(agent),
        ),
        turn: info.turn,
        signal,
      })
      // A cancelled turn ends whatever the killed hooks said (AL-23).
      if (signal.aborted) return { action: 'stop' }
      const { merged } = run
      if (merged.stop) {
        streak.blocks = 0
        return { action: 'stop' }
      }
      if (merged.decision === 'deny' && merged.reason) {
        if (streak.blocks >= b.config.maxConsecutiveStopBlocks) {
          b.warn(
            `Stop hooks blocked ${streak.blocks} times in a row; the turn ends (maxConsecutiveStopBlocks = ${b.config.maxConsecutiveStopBlocks})`,
          )
          streak.blocks = 0
          return { action: 'stop' }
        }
        streak.blocks++
        return { action: 'continue', reason: merged.reason }
      }
      streak.blocks = 0
      return next()
    },
  )
}
