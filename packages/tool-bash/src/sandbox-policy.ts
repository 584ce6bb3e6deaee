// What a model-written command may touch, by permission mode (issue 9.3): in `workspace-write` it
// writes the workspace, the temp folders and `sandboxWritable`, but not the control files of tack and
// the hook bridges inside the workspace; in `read-only` it writes only the temp folders. In both it
// cannot read credentials or `$TACK_HOME`. `ask` (every call approved by a person) and `yolo` run
// unconfined. The policy is enforced by `@tack/process`'s sandbox launchers.
import { homedir, tmpdir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { isWithin, type SandboxPolicy } from '@tack/process'
import type { BashToolConfig } from './config.ts'

/**
 * Inside the workspace, read-only in the sandbox whole: tack's config and plugins, the Claude Code and
 * Codex project folders (hooks, settings, and commands or MCP servers that run programs), and `.git`.
 * All of `.git`, not just its hooks: its `config` runs programs on the user's next `git status`
 * (`core.fsmonitor`, `core.hooksPath`, aliases, filters), `commondir` points git at another config, and
 * a gitlink written to the index makes `git status` run in a nested repository with a config of the
 * command's choosing. So git commands that write (add, commit, checkout, stash) fail in the sandbox, as
 * in Codex's workspace-write (see docs/decisions/0016-bash-sandbox.md).
 */
export const CONTROL_PATHS = Object.freeze(['.tack', '.claude', '.codex', '.git'])

/**
 * Unix sockets that stand for the user's credentials, from the command's environment: the ssh agent
 * (signs as the user with keys the sandbox hides as files) and the per-user runtime folder (the D-Bus
 * session bus, which answers for the desktop keyring; gpg and podman sockets).
 */
export function credentialSockets(env: Readonly<Record<string, string | undefined>>): string[] {
  return [env.SSH_AUTH_SOCK, env.XDG_RUNTIME_DIR].filter(
    (path): path is string => typeof path === 'string' && isAbsolute(path),
  )
}

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

/**
 * Where placeholder folders are recorded while held (`$TACK_HOME/placeholders`, hidden from the sandbox),
 * so the next tack removes those a killed one left in a workspace. Without `tackHome` (an embedder that
 * sets none) there is no ledger: tack does not write into a home folder it was not given.
 */
export function placeholderLedger(config: Pick<BashToolConfig, 'tackHome'>): string | undefined {
  return config.tackHome ? join(resolve(config.tackHome), 'placeholders') : undefined
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
  env: Readonly<Record<string, string | undefined>> = process.env,
): SandboxPolicy {
  const root = resolve(workspace)
  const extra = mode === 'workspace-write' ? config.sandboxWritable.map((p) => expandHome(p)) : []
  const writable = [...new Set([...tempFolders(), ...(mode === 'workspace-write' ? [root, ...extra] : [])])]
  // A control folder the user named itself in `sandboxWritable` (`--sandbox-writable .git`) is theirs to
  // open: it stays writable. Naming a folder above it (the workspace) does not open it
  // (docs/decisions/0315-leaving-the-sandbox.md).
  const controls = CONTROL_PATHS.map((p) => join(root, p)).filter((path) => !extra.includes(path))
  const denied = [...config.sandboxDenyRead, ...config.sandboxExtraDenyRead].map((p) => expandHome(p))
  if (config.tackHome) denied.push(resolve(config.tackHome))
  denied.push(...credentialSockets(env))
  // A hidden folder that holds the workspace (or another writable folder) would hide it: it is left
  // readable.
  const unique = [...new Set(denied)]
  const hidden = unique.filter(
    (path) =>
      !writable.some((folder) => isWithin(folder, path)) &&
      // A path inside another hidden one is hidden with it (a declared store file under $TACK_HOME).
      !unique.some((other) => other !== path && isWithin(path, other)),
  )
  const scratch = resolve(config.scratchRoot)
  const scratchHidden = hidden.some((path) => isWithin(scratch, path))
  // The spill folder is tack's: in a writable folder (the default is in /tmp) a command could plant a
  // link where tack will write the next spill file.
  const scratchWritable = !scratchHidden && writable.some((folder) => isWithin(scratch, folder))
  return {
    writable,
    readOnly: [...(mode === 'workspace-write' ? controls : []), ...(scratchWritable ? [scratch] : [])],
    hidden,
    revealed: scratchHidden ? [scratch] : [],
    network: config.sandboxNetwork === 'allow',
  }
}
