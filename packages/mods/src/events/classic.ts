// The two host-raised classic events (65-mod-host.md requirement 10): `classic.StopFailure` when a turn
// ends in error, `classic.Notification` when a tool's permission ask is put to the user. No settings hooks
// run beneath them (the Claude bridge fires its own StopFailure and Notification hooks on tack's seams), so
// the core only answers `{}`.
import type { Agent } from '@tack/agent'
import { claudeApiError } from '@tack/claude-protocol'
import type { Mapping } from './shared.ts'

const NOTHING = async () => ({})

/** A turn's error code as Claude Code's `error` word: @tack/claude-protocol's table, as the Claude bridge says it. */
export const stopFailureError = claudeApiError

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
