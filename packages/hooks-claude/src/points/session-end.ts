// SessionEnd and StopFailure (claude-code-hook-events.md), top-level agents only.
// SessionEnd on `agent/disposed`: `reason` from the dispose cause — `clear` (/clear; SessionStart `clear`
// follows in the new session), `resume` (the TUI switched sessions), `prompt_input_exit` (the person left
// the interactive UI), else `other` (a headless run's end, ACP, a signal, an error). Output is ignored;
// disposal waits for the hooks (as Claude Code waits), a failure is warned.
// StopFailure on `agent/turn-failed` when the model call failed (an API error), instead of Stop (which a
// failed turn never reaches): `error` (Claude Code's word for it), `error_details`, `last_assistant_message`.
// Output ignored; the turn does not wait for it, the agent's disposal does (a headless run ends at once).
import type { Agent, DisposeCause, TurnFailure } from '@tack/agent'
import { claudeApiError } from '@tack/claude-protocol'
import type { ClaudeBridge } from '../bridge.ts'
import { lastAssistantText } from '../payload.ts'

export function sessionEndReason(agent: Agent, cause: DisposeCause): string {
  switch (cause) {
    case 'clear':
      return 'clear'
    case 'resume':
      return 'resume'
    case 'exit':
      return agent.options.labels?.interactive === true ? 'prompt_input_exit' : 'other'
    case 'error':
    case 'signal':
      return 'other'
    default:
      return cause satisfies never
  }
}

export function onSessionEnd(bridge: ClaudeBridge, agent: Agent, cause: DisposeCause): void {
  if (agent.parent || !bridge.mayRun('SessionEnd', agent, [sessionEndReason(agent, cause)])) return
  const reason = sessionEndReason(agent, cause)
  const chain = bridge.runPoint({
    point: 'SessionEnd',
    agent,
    fields: { reason },
    subjects: [reason],
    signal: bridge.endSignal,
  })
  bridge.trackEnd(agent, chain, 'SessionEnd hooks')
}

export function onStopFailure(bridge: ClaudeBridge, agent: Agent, failure: TurnFailure): void {
  if (agent.parent || failure.origin !== 'model') return
  const error = claudeApiError(failure.code)
  if (!bridge.mayRun('StopFailure', agent, [error])) return
  const last = lastAssistantText(agent.session.events())
  const chain = bridge.runPoint({
    point: 'StopFailure',
    agent,
    fields: {
      error,
      error_details: failure.message,
      ...(last !== undefined ? { last_assistant_message: last } : {}),
    },
    subjects: [error],
    signal: bridge.endSignal,
  })
  // Not awaited by the turn, but a headless run ending right after the failure must not cut it.
  bridge.trackEnd(agent, chain, 'StopFailure hooks')
}
