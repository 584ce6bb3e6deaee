// Turns `bash -c <command>` into the same command inside the OS sandbox, for the process runner. The
// runner calls `wrap` just before spawning and `release` once the process group is gone.
import { lstat, realpath } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { bwrapArgs } from './bwrap-args.ts'
import type { SandboxSupport } from './detect.ts'
import { pathKind } from './path-kind.ts'
import { holdPlaceholder, type Placeholder } from './placeholders.ts'
import { isWithin, type SandboxPolicy } from './policy.ts'
import { seatbeltProfile } from './seatbelt.ts'

export interface WrappedCommand {
  readonly argv: readonly string[]
  /**
   * The leader is a launcher whose death takes the command with it at once (bwrap with
   * `--die-with-parent`): a SIGTERM meant to let the command clean up must reach the rest of the
   * group, not the leader. SIGKILL still goes to the whole group.
   */
  readonly spareLeaderOnTerm?: boolean
  /**
   * The command checks, as it starts, that tack is still there: the runner passes one end of a socket
   * as fd 3 and holds the other until the process exits, never writing to it. See `LIFELINE_PRELUDE`.
   */
  readonly lifeline?: boolean
  /** Undoes what `wrap` set up (placeholders); called after the command's group is gone. */
  release(): Promise<void>
}

export interface ProcessWrapper {
  wrap(argv: readonly string[], cwd: string): Promise<WrappedCommand>
}

export interface SandboxWrapperOptions {
  /**
   * A folder the sandbox cannot see (tack uses `$TACK_HOME/placeholders`) where placeholders are
   * recorded while held, so that the ones a killed tack left behind are removed by the next sweep
   * (`sweepPlaceholders`, also run by every wrap). Without it such leftovers stay.
   */
  readonly placeholderLedger?: string
}

/** A wrapper that runs commands under `policy` with the sandbox `support` found. */
export function sandboxWrapper(
  support: Exclude<SandboxSupport, { kind: 'none' }>,
  policy: SandboxPolicy,
  options: SandboxWrapperOptions = {},
): ProcessWrapper {
  return {
    wrap: (argv, cwd) =>
      support.kind === 'bwrap'
        ? wrapBwrap(support, policy, argv, cwd, options.placeholderLedger)
        : wrapSeatbelt(support.path, policy, argv),
  }
}

async function wrapBwrap(
  support: Extract<SandboxSupport, { kind: 'bwrap' }>,
  policy: SandboxPolicy,
  argv: readonly string[],
  cwd: string,
  ledger: string | undefined,
): Promise<WrappedCommand> {
  const held: Placeholder[] = []
  const release = async () => {
    for (const placeholder of held.splice(0)) await placeholder.release()
  }
  try {
    const readOnly: string[] = []
    for (const path of policy.readOnly) {
      const link = await symlinkOnTheWay(path, policy.writable)
      if (link) {
        throw new Error(
          `${link} is a symbolic link: the sandbox cannot keep it read-only (a command could replace the link); make it a real folder or file`,
        )
      }
      const placeholder = await holdPlaceholder(path, policy.writable, ledger)
      if (!placeholder) continue
      held.push(placeholder)
      readOnly.push(placeholder.path)
    }
    const existing = new Map<string, 'dir' | 'file'>()
    for (const path of [...policy.writable, ...readOnly, ...policy.hidden, ...policy.revealed]) {
      const kind = await pathKind(path, 'follow')
      if (kind) existing.set(path, kind)
    }
    const guarded = [...readOnly, ...policy.hidden.filter((path) => existing.has(path))]
    const pinned = await foldersToPin(guarded, policy.writable)
    const args = bwrapArgs(
      { ...policy, readOnly },
      { cwd, existing, pinned, disableUserns: support.disableUserns },
    )
    return {
      argv: [support.path, ...args, '--', 'bash', '-c', LIFELINE_PRELUDE, 'tack-lifeline', ...argv],
      release,
      spareLeaderOnTerm: true,
      lifeline: true,
    }
  } catch (error) {
    await release()
    throw error
  }
}

/**
 * Run first inside the sandbox, before the command (`exec "$@"`, so the command keeps its pid, stdin and
 * exit status). fd 3 reads end-of-file once tack is gone. If it already does, the command never starts;
 * otherwise a watcher (one more process in the sandbox, holding fd 3, which the command does not get)
 * waits for that end-of-file and then kills every process of the sandbox but its pid 1, which then exits.
 *
 * Why `--die-with-parent` is not enough: bwrap's pid 1 in the sandbox binds its life to the launcher only
 * after forking the command, and it waits for every process of the sandbox. A tack SIGKILLed before that
 * (the launcher dies with it) left pid 1 and a command's background process (`sleep 30 &`) alive — R1
 * caught it under load in about one kill in ten of bwrap's start-up.
 */
export const LIFELINE_PRELUDE =
  'if read -r -t 0 -u 3; then exit 137; fi; ' +
  '{ read -r -u 3; kill -KILL -1; } </dev/null >/dev/null 2>&1 & exec 3<&-; exec "$@"'

async function wrapSeatbelt(
  sandboxExec: string,
  policy: SandboxPolicy,
  argv: readonly string[],
): Promise<WrappedCommand> {
  const canonical = (paths: readonly string[]) => Promise.all(paths.map(canonicalPath))
  const profile = seatbeltProfile({
    writable: await canonical(policy.writable),
    readOnly: await canonical(policy.readOnly),
    hidden: await canonical(policy.hidden),
    revealed: await canonical(policy.revealed),
    network: policy.network,
  })
  return { argv: [sandboxExec, '-p', profile, ...argv], release: async () => {} }
}

/**
 * The folders to make mount points of, so that they cannot be renamed: every folder between a writable
 * root and a guarded (read-only or hidden) path. Renaming a folder that holds a mount point is allowed,
 * and would let a command move `.git` (with its read-only `hooks` mount inside) aside and create a new
 * `.git/hooks` in its place; a mount point itself cannot be renamed or removed (EBUSY). Only real
 * folders are pinned: binding a path through a symbolic link would mount its target writable.
 */
async function foldersToPin(guarded: readonly string[], writable: readonly string[]): Promise<string[]> {
  const pins = new Set<string>()
  for (const path of guarded) {
    for (let folder = dirname(path); folder !== dirname(folder); folder = dirname(folder)) {
      if (!writable.some((root) => isWithin(folder, root) && folder !== root)) break
      pins.add(folder)
    }
  }
  const real: string[] = []
  for (const folder of pins) {
    // Inside a read-only or hidden path already: binding it writable would undo that.
    if (guarded.some((path) => isWithin(folder, path))) continue
    if ((await realpath(folder).catch(() => undefined)) === folder) real.push(folder)
  }
  return real
}

/** The first symbolic link among `path` and its folders inside a writable root, if any. */
async function symlinkOnTheWay(path: string, writable: readonly string[]): Promise<string | undefined> {
  const chain: string[] = []
  for (let p = path; writable.some((root) => isWithin(p, root) && p !== root); p = dirname(p))
    chain.unshift(p)
  for (const p of chain) {
    const stats = await lstat(p).catch(() => undefined)
    if (!stats) return undefined
    if (stats.isSymbolicLink()) return p
  }
  return undefined
}

/** The path with symlinks resolved (seatbelt matches real paths); a missing tail is kept as written. */
async function canonicalPath(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch {
    const parent = dirname(path)
    if (parent === path) return path
    return join(await canonicalPath(parent), basename(path))
  }
}
