// Mount points for control paths that do not exist yet. bubblewrap can only mount over something that
// exists, and a missing `.claude` in a writable workspace would otherwise be created by the command
// (with a planted hook in it). So the first missing component is created as an empty folder before the
// command starts, mounted read-only inside the sandbox, and removed after the command — unless someone
// put something in it meanwhile (tack's own fs tools write on the host side). Calls running at the same
// time share a placeholder: it is counted, and only the last one out removes it, because removing a
// mount point on the host detaches that mount in every sandbox still using it.
//
// A process that is killed cannot remove its placeholders, and only a record kept outside the workspace
// tells a leftover placeholder from a folder the user made. With a ledger (`$TACK_HOME/placeholders`,
// hidden from the sandbox) each process holding a placeholder has a file there naming it; the next
// process to sweep the ledger removes placeholders whose holders are all dead (see placeholder-ledger.ts).
// The ledger also lets two tack processes share one placeholder: the last holder alive removes it.
import { mkdir, rmdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import {
  forgetHold,
  ledgerHolds,
  otherLivingHolders,
  recordHold,
  sweepPlaceholders,
} from './placeholder-ledger.ts'
import { pathKind } from './path-kind.ts'
import { isWithin } from './policy.ts'

/** Placeholders this process holds: how many of its calls use each. */
const held = new Map<string, number>()

/** Holding and releasing run one at a time in a process, so no two calls race to make one placeholder. */
let queue: Promise<unknown> = Promise.resolve()
function serially<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work)
  queue = result.catch(() => {})
  return result
}

export interface Placeholder {
  /** The path to mount read-only: the control path itself, or the placeholder made for it. */
  readonly path: string
  release(): Promise<void>
}

const NOTHING_TO_RELEASE = async () => {}

/**
 * Makes `path` (or its first missing ancestor, if that lies inside one of `writable`) exist and returns
 * what to mount; undefined when nothing needs mounting (not writable anyway). With `ledger`, leftovers of
 * dead processes are swept first and the placeholder is recorded there while held.
 */
export function holdPlaceholder(
  path: string,
  writable: readonly string[],
  ledger?: string,
): Promise<Placeholder | undefined> {
  return serially(() => hold(path, writable, ledger))
}

async function hold(
  path: string,
  writable: readonly string[],
  ledger: string | undefined,
): Promise<Placeholder | undefined> {
  const inWritable = (at: string) => writable.some((root) => isWithin(at, root))
  if (!inWritable(path)) return undefined
  const others = ledger ? await heldElsewhere(ledger) : new Set<string>()
  // A placeholder already made for this path or an ancestor (by this or another living tack process)
  // covers it: mount that one rather than make a second one inside it.
  for (let at = path; inWritable(at); at = dirname(at)) {
    if (held.has(at) || others.has(at)) return share(at, ledger)
    if (dirname(at) === at) break
  }
  let target = path
  for (;;) {
    if ((await pathKind(target, 'own')) !== undefined) {
      return target === path ? { path, release: NOTHING_TO_RELEASE } : undefined
    }
    const parent = dirname(target)
    if (parent === target) return undefined
    const kind = await pathKind(parent, 'own')
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
  if (!inWritable(target)) return undefined
  // Recorded before it exists, so a kill between the two leaves a record, never an unrecorded folder.
  if (ledger) await recordHold(ledger, target)
  try {
    await mkdir(target)
  } catch (error) {
    if (ledger) await forgetHold(ledger, target)
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return { path: target, release: NOTHING_TO_RELEASE } // someone else made it: theirs, not ours
  }
  return share(target, ledger)
}

/** Placeholders that other living processes hold, after sweeping those of dead ones. */
async function heldElsewhere(ledger: string): Promise<Set<string>> {
  await sweepPlaceholders(ledger)
  const paths = new Set<string>()
  for (const hold of await ledgerHolds(ledger)) if (!hold.mine && hold.alive) paths.add(hold.path)
  return paths
}

async function share(target: string, ledger: string | undefined): Promise<Placeholder> {
  const count = held.get(target) ?? 0
  // Also when the placeholder is another process's: recorded, it is not removed while this one uses it.
  if (count === 0 && ledger) await recordHold(ledger, target)
  held.set(target, count + 1)
  let released = false
  return {
    path: target,
    release() {
      if (released) return Promise.resolve()
      released = true
      return serially(async () => {
        const left = (held.get(target) ?? 1) - 1
        if (left > 0) {
          held.set(target, left)
          return
        }
        held.delete(target)
        // Still held by another living process: its last holder removes it.
        const shared = ledger !== undefined && (await otherLivingHolders(ledger, target)) > 0
        if (!shared) await rmdir(target).catch(() => {}) // not empty (someone wrote into it) or gone: keep it
        // The record goes last: a kill before this leaves a record for a sweep, never an unrecorded folder.
        if (ledger) await forgetHold(ledger, target)
      })
    },
  }
}
