// Permission modes (80-cli.md §4, TL-36) and the per-agent mode. The plugin's Config `mode` is the
// default; `agent.options.permissionMode` overrides it for one agent; `setPermissionMode` changes it
// during a session, recorded as a log-only `permission/mode` event, in force from the next call, and
// restored from the last such event when the session is resumed — unless that event came with an
// imported log (`permission/imported` after it): a session file is data someone else may have
// written, so its mode may narrow the agent's own but never widen it (docs/decisions/0119-reported-and-resumed-permission-mode.md).
import type { ToolAgent } from '@tack/tools'

export const PERMISSION_MODES = Object.freeze(['ask', 'workspace-write', 'read-only', 'yolo'] as const)
export type PermissionMode = (typeof PERMISSION_MODES)[number]

declare module '@tack/session' {
  interface SessionEventMap {
    /** The agent's permission mode was changed to `mode` during the session; it governs the calls after it (TL-36). */
    'permission/mode': { mode: 'ask' | 'workspace-write' | 'read-only' | 'yolo' }
    /** The events before this one were imported from a file (`tack sessions import`): their mode switches are not the user's. */
    'permission/imported': Record<string, never>
  }
}

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value)
}

/** How wide each mode lets the agent act, for the cap on an imported log's mode (ask without an approver denies). */
const WIDTH: Record<PermissionMode, number> = { 'read-only': 0, ask: 1, 'workspace-write': 2, yolo: 3 }

/** The narrower of two modes. */
export function narrowerMode(a: PermissionMode, b: PermissionMode): PermissionMode {
  return WIDTH[a] <= WIDTH[b] ? a : b
}

/** Whether `mode` lets the agent do more than `than`. */
export function isWiderMode(mode: PermissionMode, than: PermissionMode): boolean {
  return WIDTH[mode] > WIDTH[than]
}

/** The mode a session's log restores: the last switch, and whether it came with an imported log. */
interface Logged {
  readonly mode: PermissionMode
  readonly imported: boolean
}

/** Per agent object: the mode set during the session (or found in its resumed log), null for none (folded once). */
const switched = new WeakMap<ToolAgent, Logged | null>()

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
  switched.set(agent, { mode, imported: false })
}

/**
 * The mode in force for a call: the one set during the session, else the agent's option, else
 * `fallback` (the plugin's Config); a mode an imported log set counts only as far as it narrows the
 * option (or fallback). An invalid option throws, so the permission gate fails closed.
 */
export function permissionModeOf(agent: ToolAgent | undefined, fallback: PermissionMode): PermissionMode {
  if (!agent) return fallback
  const set = loggedMode(agent)
  if (set && !set.imported) return set.mode
  const own = optionOf(agent) ?? fallback
  return set ? narrowerMode(set.mode, own) : own
}

/**
 * On resuming `agent`: when the mode its log restores came with an imported log and is wider than
 * `own` (the config and flags of this run), records `own` as the session's mode, so every reader of
 * the log (the TUI, hook payloads, ACP) sees the mode in force, and returns what was dropped.
 */
export function settleImportedMode(
  agent: ToolAgent,
  own: PermissionMode,
): { readonly logged: PermissionMode; readonly mode: PermissionMode } | undefined {
  const set = loggedMode(agent)
  if (!set?.imported || !isWiderMode(set.mode, own)) return undefined
  setPermissionMode(agent, own)
  return { logged: set.mode, mode: own }
}

/** The switch `agent`'s session made (or its log restores), or null when none (folded once). */
export function loggedMode(agent: ToolAgent): Logged | null {
  let set = switched.get(agent)
  if (set === undefined) {
    set = lastLoggedMode(agent)
    switched.set(agent, set)
  }
  return set
}

function optionOf(agent: ToolAgent): PermissionMode | undefined {
  const option = agent.options.permissionMode
  if (option === undefined) return undefined
  if (!isPermissionMode(option)) {
    throw new RangeError(
      `agent option permissionMode ${JSON.stringify(option)} is not a permission mode (expected one of ${PERMISSION_MODES.join(', ')})`,
    )
  }
  return option
}

/** The mode of the last `permission/mode` event in `agent`'s log, and whether an import marker follows it; or null. */
function lastLoggedMode(agent: ToolAgent): Logged | null {
  const events = agent.session.events()
  let imported = false
  for (let i = events.length - 1; i >= 0; i--) {
    const type = events[i].type as string
    if (type === 'permission/imported') imported = true
    if (type !== 'permission/mode') continue
    const mode = (events[i].data as { mode?: unknown }).mode
    if (isPermissionMode(mode)) return { mode, imported }
  }
  return null
}
