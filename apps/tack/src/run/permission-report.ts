// The permission mode `tack run` reports — in `-v` and the `--json` start line — is the one in force
// for the agent, not the one the config and flags start it in: a resumed session's last
// `permission/mode` switch wins over them (docs/decisions/0104-mode-switches.md), so reporting the
// configured mode would say `workspace-write` while bash runs unconfined in `yolo`
// (docs/decisions/0119-reported-and-resumed-permission-mode.md).
import {
  isPermissionMode,
  isWiderMode,
  type PermissionMode,
  permissionModeOf,
  settleImportedMode,
} from '@tack/permissions'
import type { ToolAgent } from '@tack/tools'

/** `tack run`'s mode when the config and the flags set none (80-cli.md §4): no one is there to ask. */
export const HEADLESS_PERMISSION_MODE: PermissionMode = 'workspace-write'

export interface ModeReport {
  /** The mode in force for the agent's next tool call. */
  readonly mode: PermissionMode
  /** The `-v` line: the mode, and where it comes from when the session's log decides it. */
  readonly diagnostic: string
}

/** What is in force for `agent`, which this run started in `start` (config, then flags). */
export function permissionModeReport(agent: ToolAgent, start: string): ModeReport {
  const own: PermissionMode = isPermissionMode(start) ? start : HEADLESS_PERMISSION_MODE
  const mode = permissionModeOf(agent, own)
  const diagnostic =
    mode === own
      ? `permission mode: ${mode}`
      : `permission mode: ${mode} (switched in this session, which wins over ${own} from the config and flags)`
  return { mode, diagnostic }
}

/** What a person must read on resuming a session whose log decides the mode (see resumedModeNotices). */
export interface ResumedModeNotices {
  /** An imported log's wider mode was dropped: always shown (it is settled once, then gone). */
  readonly dropped?: string
  /** The session's own earlier switch is wider than the run's mode: shown before tools can run. */
  readonly wider?: string
}

/**
 * On resuming `agent` in `start`: an imported log's wider mode is dropped (and the session's mode
 * recorded as `start`), or the session's own earlier switch to a mode wider than `start` is kept; each
 * is said on stderr (docs/decisions/0119-reported-and-resumed-permission-mode.md).
 */
export function resumedModeNotices(agent: ToolAgent, start: string): ResumedModeNotices {
  const own: PermissionMode = isPermissionMode(start) ? start : HEADLESS_PERMISSION_MODE
  const dropped = settleImportedMode(agent, own)
  if (dropped)
    return {
      dropped: `tack: this session was imported with permission mode ${dropped.logged} in its log; it runs in ${dropped.mode} (your config and flags). A session file is data anyone may have written: /permissions ${dropped.logged} or --permission-mode ${dropped.logged} widens it if you mean to.\n`,
    }
  const mode = permissionModeOf(agent, own)
  if (!isWiderMode(mode, own)) return {}
  return {
    wider: `tack: this session runs in permission mode ${mode}, switched in it earlier, wider than ${own} from your config and flags (/permissions ${own} narrows it).\n`,
  }
}
