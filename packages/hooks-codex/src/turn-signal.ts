// The signal for hook runs of a turn's seams (UserPromptSubmit, Stop): the running turn's, so a cancel
// kills them at once (AL-23, docs/decisions/0195-cancel-during-admission.md), with the agent's lifetime,
// so disposal does too. Take it when the listener starts: once the turn ends `agent.turnSignal` is gone.
import type { Agent } from '@tack/agent'
import type { Bridge } from './bridge.ts'

export function turnSignalOf(b: Bridge, agent: Agent): AbortSignal {
  const turn = agent.turnSignal
  return turn ? AbortSignal.any([b.lifetime(agent), turn]) : b.lifetime(agent)
}
