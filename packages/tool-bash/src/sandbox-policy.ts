// What a model-written command may touch, by permission mode (issue 9.3): in `workspace-write` it
// writes the workspace, the temp folders and `sandboxWritable`, but not the control files of tack and
// the hook bridges inside the workspace; in `read-only` it writes only the temp folders. In both it
// cannot read credentials or `$TACK_HOME`. `ask` (every call approved by a person) and `yolo` run
// unconfined. The policy is enforced by `@tack/process`'s sandbox launchers.
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { isWithin, type SandboxPolicy } from '@tack/process'
import type { BashToolConfig } from './config.ts'

/**
 * Inside the workspace, read-only in the sandbox whole: tack's config and plugins, the Claude Code and
 * Codex project folders (hooks, settings, and commands or MCP servers that run programs), git hooks.
 */
export const CONTROL_PATHS = Object.freeze(['.tack', '.claude', '.codex', '.git/hooks'])

/** The modes whose commands run in the sandbox. */
export const SANDBOXED_MODES: ReadonlySet<string> = new Set(['workspace-write', 'read-only'])

/** `~/x` → `<home>/x`; absolute paths unchanged. */
export function expandHome(path: string, home = homedir()): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : resolve(path)
}

/** The temp folders a command may always write: tack's temp folder (`$TMPDIR`) and /tmp. */
export function tempFolders(): string[] {
  return [...new Set([resolve(tmpdir()), '/tmp'])]
}

export function sandboxPolicy(
  mode: 'workspace-write' | 'read-only',
  workspace: string,
  config: Pick<
    BashToolConfig,
    | 'sandboxNetwork'
    | 'sandboxWritable'
    | 'sandboxDenyRead'
    | 'sandboxExtraDenyRead'
    | 'tackHome'
    | 'scratchRoot'
  >,
): SandboxPolicy {
  const root = resolve(workspace)
  const writable = [
    ...tempFolders(),
    ...(mode === 'workspace-write' ? [root, ...config.sandboxWritable.map((p) => expandHome(p))] : []),
  ]
  const denied = [...config.sandboxDenyRead, ...config.sandboxExtraDenyRead].map((p) => expandHome(p))
  if (config.tackHome) denied.push(resolve(config.tackHome))
  // A hidden folder that holds the workspace would hide the workspace itself: it is left readable.
  const hidden = [...new Set(denied)].filter((path) => !isWithin(root, path))
  const scratch = resolve(config.scratchRoot)
  return {
    writable: [...new Set(writable)],
    readOnly: mode === 'workspace-write' ? CONTROL_PATHS.map((p) => join(root, p)) : [],
    hidden,
    revealed: hidden.some((path) => isWithin(scratch, path)) ? [scratch] : [],
    network: config.sandboxNetwork === 'allow',
  }
}
