/** The permission-mode names Claude Code and Codex hooks receive in `permission_mode`. */
export type HookPermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions'

/**
 * tack's permission modes (80-cli.md §4) as both hook dialects name them: `ask` → `default`,
 * `workspace-write` → `acceptEdits`, `read-only` → `plan`, `yolo` → `bypassPermissions`; an unknown or
 * absent mode is `default`.
 */
export function hookPermissionMode(mode: string | undefined): HookPermissionMode {
  switch (mode) {
    case 'workspace-write':
      return 'acceptEdits'
    case 'read-only':
      return 'plan'
    case 'yolo':
      return 'bypassPermissions'
    default:
      return 'default'
  }
}
