// Where `tack worker` clones its jobs (`--scratch`; docs/decisions/0390-worker-scratch-outside-temp.md).
// Every job's sandboxed commands may write the temp folders (the bash sandbox, 0016), so checkouts kept
// there are open to every other job on the worker: one job could change a sibling's files, and so the
// diff the sibling reports (0375). The default is the person's cache folder instead — sandboxed commands
// may read it, not write it. Never `$TACK_HOME`: the sandbox would leave it readable to hold the
// workspace, so a folder inside it is refused. A folder inside a temp folder still works (given with
// --scratch, or a home that is itself in one), with one line saying so.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { isWithin } from '@tack/process'
import { tempFolders } from '@tack/tool-bash'

/** `$XDG_CACHE_HOME/tack-worker` when that is an absolute path (the XDG rule), else `~/.cache/tack-worker`. */
export function defaultScratch(env: NodeJS.ProcessEnv): string {
  const cache = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined
  return join(cache ?? join(env.HOME || homedir(), '.cache'), 'tack-worker')
}

/**
 * The warning for a scratch folder that jobs' sandboxed commands can write; undefined when they cannot.
 * Compared as real paths (the folder's nearest existing ancestor resolved): a `~/.cache` that is a link
 * into `/tmp` is in `/tmp` for the sandbox too.
 */
export function scratchWarning(scratch: string): string | undefined {
  const real = realFolder(scratch)
  const temp = tempFolders().find((folder) => isWithin(real, realFolder(folder)))
  if (temp === undefined) return undefined
  return (
    `the scratch folder ${scratch} is inside ${temp}, which every job's sandboxed commands can write: ` +
    "a job can change another job's checkout and so its diff; pass --scratch a folder outside the temp folders"
  )
}

/**
 * `path` with its nearest existing ancestor's real path in front of the part that does not exist yet. A
 * link whose target does not exist yet (a `~/.cache` pointing into a `/tmp` a reboot emptied) is followed
 * by what it says: the worker's `mkdir` would create the target there.
 */
function realFolder(path: string, depth = 0): string {
  let rest = ''
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      return join(realpathSync(at), rest)
    } catch {
      if (depth < MAX_LINKS && lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink())
        return realFolder(join(resolve(dirname(at), readlinkSync(at)), rest), depth + 1)
      if (dirname(at) === at) return resolve(path)
      rest = join(basename(at), rest)
    }
  }
}

/** Links followed by hand before giving up (the kernel's own limit is 40). */
const MAX_LINKS = 40

/**
 * Why `scratch` cannot be used at all: inside `$TACK_HOME`, which the sandbox hides from every command
 * except where it holds the workspace — then the whole home stays readable to the job, its `.env` and
 * sessions included. Undefined when it can.
 */
export function scratchRefusal(scratch: string, tackHome: string): string | undefined {
  if (!isWithin(realFolder(scratch), realFolder(tackHome))) return undefined
  return `--scratch ${scratch} is inside tack's home ${tackHome}: jobs working there could read its .env and sessions; choose a folder outside it`
}
