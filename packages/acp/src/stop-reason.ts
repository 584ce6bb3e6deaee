// tack's turn end → ACP stop reason (50-acp.md requirement 5). A turn that failed for any other reason
// than its step budget is a JSON-RPC error carrying only the message; the session stays usable.
import { RequestError, type StopReason } from '@agentclientprotocol/sdk'
import type { AnySessionEvent, SessionEvent, TurnEndReason } from '@tack/session'

export function stopReasonOf(
  reason: TurnEndReason,
  turn: number | undefined,
  events: readonly SessionEvent[],
): StopReason {
  switch (reason.kind) {
    case 'completed':
      return lastFinish(turn, events) === 'content-filter' ? 'refusal' : 'end_turn'
    case 'max-tokens':
      return 'max_tokens'
    case 'aborted':
    case 'interrupted':
    case 'disposed':
    case 'rejected':
      return 'cancelled'
    case 'error':
      if (reason.code === 'MAX_STEPS') return 'max_turn_requests'
      throw new RequestError(-32603, reason.message)
    default:
      return reason satisfies never
  }
}

function lastFinish(turn: number | undefined, events: readonly SessionEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as AnySessionEvent
    if (e.type === 'assistant/message' && (turn === undefined || e.data.turn === turn))
      return e.data.finishReason
  }
  return undefined
}
