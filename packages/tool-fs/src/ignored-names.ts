// The walk's `.gitignore` rules applied to names rg listed with `--glob`. rg's globs override ignore
// rules: `--glob=*.d.ts` also lists a `*.d.ts` file a `.gitignore` excludes, and walks into an ignored
// folder whose own name ends with `.d.ts`. Its file types keep the rules, but cost rg itself about 5 ms
// more on P9's 20,000-file tree (docs/decisions/0330-search-at-ripgrep-speed.md). So `glob` asks rg for the
// names and for every `.gitignore` rg passed on the way (`--glob=.gitignore`), and this drops what the
// walk would not have listed: the same rules (walk.ts's `isIgnored`), tested for the few names listed and
// their folders.
//
// rg never lists a symbolic link without `--follow`, but reads a `.gitignore` that is one (so does the
// walk). Such a file is looked for in each folder on a listed name's way that rg named no `.gitignore`
// in: one `lstat` per folder, nothing read unless it is a link.
import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import { type IgnoreLevel, isIgnored, levelOf } from './walk.ts'

/** Whether a listed name (relative, `/`-separated) is a `.gitignore` file. */
export const isGitignoreName = (name: string) => name === '.gitignore' || name.endsWith('/.gitignore')

/**
 * `names` (relative to `start`, `/`-separated) without those the `.gitignore` files named by
 * `gitignores` exclude — themselves or through an ignored folder above them — in the given order.
 */
export async function withoutIgnored(
  start: string,
  names: readonly string[],
  gitignores: readonly string[],
): Promise<string[]> {
  const absolute = (relative: string) => (relative === '' ? start : join(start, relative))
  const folders = new Set(gitignores.map((name) => (name === '.gitignore' ? '' : parentOf(name))))
  for (const folder of await linkedGitignores(start, names, folders)) folders.add(folder)
  if (folders.size === 0) return [...names]
  const levels = new Map<string, IgnoreLevel>()
  await Promise.all(
    [...folders].map(async (folder) => {
      const level = await levelOf(absolute(folder))
      if (level) levels.set(folder, level)
    }),
  )
  if (levels.size === 0) return [...names]
  /** The levels that apply inside `folder`: its own and its ancestors', shallow first (git's order). */
  const chains = new Map<string, readonly IgnoreLevel[]>()
  const chainOf = (folder: string): readonly IgnoreLevel[] => {
    let chain = chains.get(folder)
    if (chain) return chain
    const above = folder === '' ? [] : chainOf(parentOf(folder))
    const own = levels.get(folder)
    chain = own ? [...above, own] : above
    chains.set(folder, chain)
    return chain
  }
  /** Whether the walk would skip `folder`: it, or a folder above it, is ignored. */
  const skipped = new Map<string, boolean>()
  const folderSkipped = (folder: string): boolean => {
    if (folder === '') return false
    let verdict = skipped.get(folder)
    if (verdict !== undefined) return verdict
    const parent = parentOf(folder)
    verdict = folderSkipped(parent) || isIgnored(chainOf(parent), absolute(folder), true)
    skipped.set(folder, verdict)
    return verdict
  }
  return names.filter((name) => {
    const folder = parentOf(name)
    return !folderSkipped(folder) && !isIgnored(chainOf(folder), absolute(name), false)
  })
}

/** Names checked between two turns of the event loop: a huge listing does not hold it up for long. */
const LSTATS_PER_TURN = 500

/**
 * The folders on the way to `names` (the start folder included) whose `.gitignore` is a symbolic link,
 * among those `known` does not already name. Synchronous `lstat`s (a cached lookup each, where a promise
 * per folder would cost more than the call), with a turn of the event loop every few hundred.
 */
async function linkedGitignores(
  start: string,
  names: readonly string[],
  known: ReadonlySet<string>,
): Promise<string[]> {
  const seen = new Set<string>(known)
  const linked: string[] = []
  let checked = 0
  for (const name of names) {
    for (let folder = parentOf(name); !seen.has(folder); folder = parentOf(folder)) {
      seen.add(folder)
      if (++checked % LSTATS_PER_TURN === 0) await turn()
      const path = join(start, folder, '.gitignore')
      if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) linked.push(folder)
      if (folder === '') break
    }
  }
  return linked
}

/** The folder holding `name` (relative), `''` for the start folder itself. */
function parentOf(name: string): string {
  const at = name.lastIndexOf('/')
  return at < 0 ? '' : name.slice(0, at)
}
