// The two host-raised classic events (65-mod-host.md requirement 10): `classic.StopFailure` when a turn
// ends in error, `classic.Notification` when a tool's permission ask is put to the user. No settings hooks
// run beneath them in tack (the Claude bridge has no such points), so the core only answers `{}`.
import type { Agent } from '@tack/agent'
import type { Mapping } from './shared.ts'

const NOTHING = async () => ({})

/** A turn's error code (`HTTP_429`, `OVERLOADED`, …) as Claude Code's `error` word, mapped by HTTP status. */
export function stopFailureError(code: string | undefined): string {
  if (code === 'OVERLOADED') return 'overloaded'
  const status = Number(/^HTTP_(\d{3})$/.exec(code ?? '')?.[1])
  if (status === 401 || status === 403) return 'authentication_failed'
  if (status === 429) return 'rate_limit'
  if (status === 529) return 'overloaded'
  if (status === 404) return 'model_not_found'
  if (status === 400 || status === 413 || status === 422) return 'invalid_request'
  if (status >= 500 && status < 600) return 'server_error'
  return 'unknown'
}

/** Fires `classic.StopFailure` for a turn that ended in error; resolves when the hooks have run. */
export function fireStopFailure(
  m: Mapping,
  agent: Agent,
  failure: { code?: string; message?: string },
  lastAnswer: string,
): Promise<unknown> {
  const e = {
    error: stopFailureError(failure.code),
    ...(failure.message ? { error_details: failure.message } : {}),
    ...(lastAnswer ? { last_assistant_message: lastAnswer } : {}),
  }
  return m.host.fire('classic.StopFailure', agent, e, NOTHING)
}

/** Fires `classic.Notification` for a permission ask about to be put to the user. */
export function firePermissionNotification(m: Mapping, agent: Agent, claudeTool: string): Promise<unknown> {
  const e = {
    message: `tack needs your permission to use ${claudeTool}`,
    notification_type: 'permission_prompt',
  }
  return m.host.fire('classic.Notification', agent, e, NOTHING)
}
