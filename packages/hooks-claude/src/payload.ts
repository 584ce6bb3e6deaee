// Payload building blocks (40-hooks.md B8): the base fields every point sends, the permission-mode
// mapping, and small reads of an agent's log.
import { hookPermissionMode } from '@tack/hook-protocol'
import type { Agent } from '@tack/agent'
import type { Session, SessionEvent } from '@tack/session'
import {
  type ClaudeBasePayload,
  type ClaudePermissionMode,
  type ClaudePoint,
  SUBAGENT_TYPE,
} from './protocol.ts'

/** tack's permission modes (80-cli.md) → Claude Code's; an unknown or absent mode is `default`. */
export function claudePermissionMode(mode: string | undefined): ClaudePermissionMode {
  return hookPermissionMode(mode)
}

/** The top-level agent above `agent` (itself when it has no parent). */
export function rootAgent(agent: Agent): Agent {
  let a = agent
  while (a.parent) a = a.parent
  return a
}

/**
 * The agent's tack permission mode as far as the bridge can see it: the last `permission/mode` the
 * session recorded (a switch during the session, `@tack/permissions`), else the agent's option.
 * A mode only the permissions plugin's Config holds is not visible here.
 */
export class PermissionModeTracker {
  readonly #seen = new WeakMap<Session, { next: number; mode?: string }>()

  modeOf(agent: Agent): string | undefined {
    let st = this.#seen.get(agent.session)
    if (!st) this.#seen.set(agent.session, (st = { next: 0 }))
    // Event by event, not `events()`: that copies the whole log on every call (twice per tool call).
    const session = agent.session
    for (; st.next < session.length; st.next++) {
      const e = session.eventAt(st.next) as SessionEvent & { data: { mode?: unknown } }
      if ((e.type as string) === 'permission/mode' && typeof e.data.mode === 'string') st.mode = e.data.mode
    }
    return st.mode ?? agent.options.permissionMode
  }
}

/** The fields every payload carries; inside a subagent, `agent_id` and `agent_type` too. */
export function basePayload(
  agent: Agent,
  point: ClaudePoint,
  transcriptPath: string,
  mode: string | undefined = agent.options.permissionMode,
): ClaudeBasePayload {
  return {
    session_id: rootAgent(agent).session.id,
    transcript_path: transcriptPath,
    cwd: agent.cwd,
    hook_event_name: point,
    permission_mode: claudePermissionMode(mode),
    ...(agent.parent ? { agent_id: agent.id, agent_type: SUBAGENT_TYPE } : {}),
  }
}

/** The text of the agent's last assistant message (text blocks joined), if any. */
export { lastAssistantText } from '@tack/session'

/** The open turn's number, or undefined between turns; read back event by event (`events()` copies the log). */
export function currentTurnOf(session: Session): number | undefined {
  for (let i = session.length - 1; i >= 0; i--) {
    const e = session.eventAt(i)
    if (e?.type === 'turn/end') return undefined
    if (e?.type === 'turn/start') return (e as SessionEvent<'turn/start'>).data.turn
  }
  return undefined
}

/** Content as one string (text blocks joined by newlines). */
export function contentText(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === 'string') return content
  return content.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n')
}
