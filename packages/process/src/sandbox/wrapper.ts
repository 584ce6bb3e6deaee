// Turns `bash -c <command>` into the same command inside the OS sandbox, for the process runner. The
// runner calls `wrap` just before spawning and `release` once the process group is gone.
import { realpath, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { bwrapArgs } from './bwrap-args.ts'
import type { SandboxSupport } from './detect.ts'
import { holdPlaceholder, type Placeholder } from './placeholders.ts'
import type { SandboxPolicy } from './policy.ts'
import { seatbeltProfile } from './seatbelt.ts'

export interface WrappedCommand {
  readonly argv: readonly string[]
  /** Undoes what `wrap` set up (placeholders); called after the command's group is gone. */
  release(): Promise<void>
}

export interface ProcessWrapper {
  wrap(argv: readonly string[], cwd: string): Promise<WrappedCommand>
}

/** A wrapper that runs commands under `policy` with the sandbox `support` found. */
export function sandboxWrapper(
  support: Exclude<SandboxSupport, { kind: 'none' }>,
  policy: SandboxPolicy,
): ProcessWrapper {
  return {
    wrap: (argv, cwd) =>
      support.kind === 'bwrap'
        ? wrapBwrap(support, policy, argv, cwd)
        : wrapSeatbelt(support.path, policy, argv),
  }
}

async function wrapBwrap(
  support: Extract<SandboxSupport, { kind: 'bwrap' }>,
  policy: SandboxPolicy,
  argv: readonly string[],
  cwd: string,
): Promise<WrappedCommand> {
  const held: Placeholder[] = []
  const release = async () => {
    for (const placeholder of held.splice(0)) await placeholder.release()
  }
  try {
    const readOnly: string[] = []
    for (const path of policy.readOnly) {
      const placeholder = await holdPlaceholder(path, policy.writable)
      if (!placeholder) continue
      held.push(placeholder)
      readOnly.push(placeholder.path)
    }
    const existing = new Map<string, 'dir' | 'file'>()
    for (const path of [...policy.writable, ...readOnly, ...policy.hidden, ...policy.revealed]) {
      const kind = await kindOf(path)
      if (kind) existing.set(path, kind)
    }
    const args = bwrapArgs({ ...policy, readOnly }, { cwd, existing, disableUserns: support.disableUserns })
    return { argv: [support.path, ...args, '--', ...argv], release }
  } catch (error) {
    await release()
    throw error
  }
}

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

async function kindOf(path: string): Promise<'dir' | 'file' | undefined> {
  try {
    return (await stat(path)).isDirectory() ? 'dir' : 'file'
  } catch {
    return undefined
  }
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
