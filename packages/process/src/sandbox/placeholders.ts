// Mount points for control paths that do not exist yet. bubblewrap can only mount over something that
// exists, and a missing `.claude` in a writable workspace would otherwise be created by the command
// (with a planted hook in it). So the first missing component is created as an empty folder before the
// command starts, mounted read-only inside the sandbox, and removed after the command — unless someone
// put something in it meanwhile (tack's own fs tools write on the host side). Calls running at the same
// time share a placeholder: it is counted, and only the last one out removes it, because removing a
// mount point on the host detaches that mount in every sandbox still using it.
import { lstat, mkdir, rmdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { isWithin } from './policy.ts'

const held = new Map<string, number>()

export interface Placeholder {
  /** The path to mount read-only: the control path itself, or the placeholder made for it. */
  readonly path: string
  release(): Promise<void>
}

const NOTHING_TO_RELEASE = async () => {}

/**
 * Makes `path` (or its first missing ancestor, if that lies inside one of `writable`) exist and returns
 * what to mount; undefined when nothing needs mounting (not writable anyway).
 */
export async function holdPlaceholder(
  path: string,
  writable: readonly string[],
): Promise<Placeholder | undefined> {
  if (!writable.some((root) => isWithin(path, root))) return undefined
  let target = path
  for (;;) {
    if (held.has(target)) return share(target)
    if (await exists(target)) {
      return target === path ? { path, release: NOTHING_TO_RELEASE } : undefined
    }
    const parent = dirname(target)
    if (parent === target) return undefined
    const kind = await kindOf(parent)
    // A file where a folder of the path should be (a git worktree's `.git` file under `.git/hooks`):
    // nothing can be created below it, and the file itself is what must stay as it is.
    if (kind === 'file') {
      return writable.some((root) => isWithin(parent, root) && parent !== root)
        ? { path: parent, release: NOTHING_TO_RELEASE }
        : undefined
    }
    if (kind === 'dir') break
    target = parent
  }
  // `target` is missing and its parent exists: make it, unless it is outside every writable root (then
  // the command cannot create it either).
  if (!writable.some((root) => isWithin(target, root))) return undefined
  try {
    await mkdir(target)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return { path: target, release: NOTHING_TO_RELEASE } // someone else made it: theirs, not ours
  }
  held.set(target, 0)
  return share(target)
}

function share(target: string): Placeholder {
  held.set(target, (held.get(target) ?? 0) + 1)
  let released = false
  return {
    path: target,
    async release() {
      if (released) return
      released = true
      const left = (held.get(target) ?? 1) - 1
      if (left > 0) {
        held.set(target, left)
        return
      }
      held.delete(target)
      await rmdir(target).catch(() => {}) // not empty (someone wrote into it) or already gone: keep it
    },
  }
}

async function kindOf(path: string): Promise<'dir' | 'file' | undefined> {
  try {
    return (await lstat(path)).isDirectory() ? 'dir' : 'file'
  } catch {
    return undefined
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch {
    return false
  }
}
