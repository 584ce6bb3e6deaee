// Permission modes (80-cli.md §4, TL-36) and the per-agent mode. The plugin's Config `mode` is the
// default; `agent.options.permissionMode` overrides it for one agent; `setPermissionMode` changes it
// during a session, recorded as a log-only `permission/mode` event, in force from the next call, and
// restored from the last such event when the session is resumed.
import type { ToolAgent } from '@tack/tools'

export const PERMISSION_MODES = Object.freeze(['ask', 'workspace-write', 'read-only', 'yolo'] as const)
export type PermissionMode = (typeof PERMISSION_MODES)[number]

declare module '@tack/session' {
  interface SessionEventMap {
    /** The agent's permission mode was changed to `mode` during the session; it governs the calls after it (TL-36). */
    'permission/mode': { mode: 'ask' | 'workspace-write' | 'read-only' | 'yolo' }
  }
}

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value)
}

/** Per agent object: the mode set during the session (or found in its resumed log), null for none (folded once). */
const switched = new WeakMap<ToolAgent, PermissionMode | null>()

/**
 * Changes `agent`'s permission mode from its next tool call on, and records the change in its
 * session. Every call is recorded, even one that sets the mode already in force: it is a user act.
 */
export function setPermissionMode(agent: ToolAgent, mode: PermissionMode): void {
  if (!isPermissionMode(mode)) {
    throw new RangeError(
      `unknown permission mode ${JSON.stringify(mode)} (expected one of ${PERMISSION_MODES.join(', ')})`,
    )
  }
  agent.session.append('permission/mode', { mode })
  switched.set(agent, mode)
}

/**
 * The mode in force for a call: the one set during the session, else the agent's option, else
 * `fallback` (the plugin's Config). An invalid option throws, so the permission gate fails closed.
 */
export function permissionModeOf(agent: ToolAgent | undefined, fallback: PermissionMode): PermissionMode {
  if (!agent) return fallback
  let set = switched.get(agent)
  if (set === undefined) {
    set = lastLoggedMode(agent)
    switched.set(agent, set)
  }
  if (set) return set
  const option = agent.options.permissionMode
  if (option === undefined) return fallback
  if (!isPermissionMode(option)) {
    throw new RangeError(
      `agent option permissionMode ${JSON.stringify(option)} is not a permission mode (expected one of ${PERMISSION_MODES.join(', ')})`,
    )
  }
  return option
}

/** The mode of the last `permission/mode` event in `agent`'s log, or null. */
function lastLoggedMode(agent: ToolAgent): PermissionMode | null {
  const events = agent.session.events()
  for (let i = events.length - 1; i >= 0; i--) {
    if ((events[i].type as string) !== 'permission/mode') continue
    const mode = (events[i].data as { mode?: unknown }).mode
    if (isPermissionMode(mode)) return mode
  }
  return null
}
