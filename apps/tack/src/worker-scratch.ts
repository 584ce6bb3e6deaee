// Where `tack worker` clones its jobs (`--scratch`; docs/decisions/0390-worker-scratch-outside-temp.md).
// Every job's sandboxed commands may write the temp folders (the bash sandbox, 0016), so checkouts kept
// there are open to every other job on the worker: one job could change a sibling's files, and so the
// diff the sibling reports (0375). The default is the person's cache folder instead — sandboxed commands
// may read it, not write it — and never `$TACK_HOME`, which they cannot see at all. A folder inside a temp
// folder still works (given with --scratch, or a home that is itself in one), with one line saying so.
import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
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
  const temp = tempFolders().find((folder) => isInside(real, realFolder(folder)))
  if (temp === undefined) return undefined
  return (
    `the scratch folder ${scratch} is inside ${temp}, which every job's sandboxed commands can write: ` +
    "a job can change another job's checkout and so its diff; pass --scratch a folder outside the temp folders"
  )
}

/** `path` with its nearest existing ancestor's real path in front of the part that does not exist yet. */
function realFolder(path: string): string {
  let rest = ''
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      return join(realpathSync(at), rest)
    } catch {
      if (dirname(at) === at) return resolve(path)
      rest = join(basename(at), rest)
    }
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}
