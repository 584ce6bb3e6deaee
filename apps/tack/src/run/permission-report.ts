// The permission mode `tack run` reports — in `-v` and the `--json` start line — is the one in force
// for the agent, not the one the config and flags start it in: a resumed session's last
// `permission/mode` switch wins over them (docs/decisions/0104-mode-switches.md), so reporting the
// configured mode would say `workspace-write` while bash runs unconfined in `yolo`
// (docs/decisions/0119-reported-and-resumed-permission-mode.md).
import { isPermissionMode, type PermissionMode, permissionModeOf } from '@tack/permissions'
import type { ToolAgent } from '@tack/tools'

export interface ModeReport {
  /** The mode in force for the agent's next tool call. */
  readonly mode: PermissionMode
  /** The `-v` line: the mode, and where it comes from when the session's log decides it. */
  readonly diagnostic: string
}

/** What is in force for `agent`, which this run started in `start` (config, then flags). */
export function permissionModeReport(agent: ToolAgent, start: string): ModeReport {
  const own: PermissionMode = isPermissionMode(start) ? start : 'workspace-write'
  const mode = permissionModeOf(agent, own)
  const diagnostic =
    mode === own
      ? `permission mode: ${mode}`
      : `permission mode: ${mode} (switched in this session, which wins over ${own} from the config and flags)`
  return { mode, diagnostic }
}
