// The folder (or file) a `glob` or `grep` call searches, scoped like every fs path, and how its
// results are named: relative to the call's cwd when below it, else absolute.
import { realpath, stat } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import type { ToolCallContext } from '@tack/tools'
import { ToolFailure } from '@tack/tools'
import { isMissing } from './files.ts'
import { isInside, type ResolvedPath, resolveScoped } from './workspace.ts'

export interface SearchRoot {
  readonly path: ResolvedPath
  readonly isDirectory: boolean
  /**
   * Names an absolute real path for the model: one line per result, so a name holding a newline (or any
   * other control character) is written as a JSON string, `"a\nb.txt"`, which the model can pass back.
   */
  name(real: string): string
}

export async function searchRoot(call: ToolCallContext, requested: string | undefined): Promise<SearchRoot> {
  // The cwd's real path is looked up beside the scope check, not after it: one wait on the file
  // system's threads fewer before the search starts.
  const [path, cwd] = await Promise.all([
    resolveScoped(call, requested ?? '.'),
    realpath(call.cwd).catch(() => call.cwd),
  ])
  let isDirectory: boolean
  try {
    isDirectory = (await stat(path.real)).isDirectory()
  } catch (error) {
    if (isMissing(error)) throw new ToolFailure('NOT_FOUND', `${path.requested} does not exist.`)
    throw error
  }
  // Listed paths are real and normalised, so below the cwd their name is what follows its prefix:
  // slicing gives what `relative` would, at a fraction of its cost for thousands of results.
  const prefix = cwd.endsWith(sep) ? cwd : cwd + sep
  const below = (real: string) => {
    const rel = real.startsWith(prefix) ? real.slice(prefix.length) : relative(cwd, real)
    return sep === '/' ? rel : rel.split(sep).join('/')
  }
  return {
    path,
    isDirectory,
    name: (real) => oneLine(isInside(cwd, real) && real !== cwd ? below(real) : real),
  }
}

/** The control characters (below space, DEL, and 0x80-0x9f): what cannot stand on a result line as itself. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

function oneLine(name: string): string {
  return CONTROL.test(name) ? JSON.stringify(name) : name
}
