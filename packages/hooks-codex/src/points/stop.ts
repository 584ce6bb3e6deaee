// Stop and SubagentStop (40-hooks.md C2, C5, B7's guard; docs/decisions/0180) on
// `agent/turn-continuation` (waterfall): Stop for top-level agents, SubagentStop (matcher subject the
// child's `agent_type`) for subagents, whose turn would end the same way. JSON or nothing: plain stdout
// fails the hook. A block (`decision: "block"` with a reason, or exit 2 with stderr) continues the turn
// with the reasons joined by a blank line as the next prompt; `continue:false` from any hook wins over
// blocks and stops. `stop_hook_active` is true after a forced continuation in this turn. After
// `maxConsecutiveStopBlocks` forced continuations in a row the next block is overridden (warned) and
// the turn stops; the count resets at each turn and on any check that did not block.
// SubagentStop runs are logged in the parent's session next to the subagent call (`subagent.ts`).
import type { Agent, ContinuationDecision, ContinuationInfo } from '@tack/agent'
import type { Bridge } from '../bridge.ts'
import {
  CODEX_SUBAGENT_TYPE,
  currentTurn,
  lastAssistantText,
  stopPayload,
  subagentStopPayload,
} from '../payload.ts'
import { type PointInput, runPoint, selectHooks } from '../runner.ts'
import { turnSignalOf } from '../turn-signal.ts'
import type { SubagentOrigins } from './subagent.ts'

export function installStop(b: Bridge, origins: SubagentOrigins): void {
  const streaks = new WeakMap<Agent, { turn: number; blocks: number }>()

  /** The point the agent's turn end is: Stop for a top-level agent, SubagentStop for a child. */
  function pointInput(agent: Agent, info: ContinuationInfo): Omit<PointInput, 'signal'> {
    const active = info.continuations > 0
    const last = lastAssistantText(agent)
    if (!agent.parent) {
      return {
        point: 'Stop',
        agent,
        subjects: [],
        payload: stopPayload(b.payloadContext(agent, info.turn), active, last),
        turn: info.turn,
      }
    }
    const origin = origins.of(agent) ?? { parent: agent.parent }
    const parentTurn = currentTurn(origin.parent)
    return {
      point: 'SubagentStop',
      agent: origin.parent,
      alsoSync: agent,
      subjects: [CODEX_SUBAGENT_TYPE],
      payload: subagentStopPayload(
        b.payloadContext(agent, info.turn),
        b.payloadContext(origin.parent).transcriptPath,
        active,
        last,
      ),
      ...(parentTurn !== undefined ? { turn: parentTurn } : {}),
      ...(origin.callId !== undefined ? { toolCallId: origin.callId } : {}),
    }
  }

  b.ctx.on(
    'agent/turn-continuation',
    async (
      agent: Agent,
      info: ContinuationInfo,
      next: () => Promise<ContinuationDecision>,
    ): Promise<ContinuationDecision> => {
      const hooks = b.registry.runnable()
      const point = agent.parent ? 'SubagentStop' : 'Stop'
      const subjects = agent.parent ? [CODEX_SUBAGENT_TYPE] : []
      if (selectHooks(hooks, point, subjects).length === 0) return next()
      const signal = turnSignalOf(b, agent)
      let streak = streaks.get(agent)
      if (!streak || streak.turn !== info.turn) streaks.set(agent, (streak = { turn: info.turn, blocks: 0 }))
      const run = await runPoint(b.runner, hooks, { ...pointInput(agent, info), signal })
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
            `${point} hooks blocked ${streak.blocks} times in a row; the turn ends (maxConsecutiveStopBlocks = ${b.config.maxConsecutiveStopBlocks})`,
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
    { phase: 'hooks' },
  )
}
