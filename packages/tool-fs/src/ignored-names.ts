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
 * Undefined when testing every name against every rule would cost more than `FILTER_BUDGET` (tens of
 * thousands of names under hundreds of rules): rg applies its rules faster than `ignore` tests them one
 * by one, so the caller asks rg again with a filter that keeps them.
 */
export async function withoutIgnored(
  start: string,
  names: readonly string[],
  gitignores: readonly string[],
): Promise<string[] | undefined> {
  const absolute = (relative: string) => (relative === '' ? start : join(start, relative))
  const folders = new Set(gitignores.map((name) => (name === '.gitignore' ? '' : parentOf(name))))
  for (const folder of await linkedGitignores(start, names, folders)) folders.add(folder)
  if (folders.size === 0) return [...names]
  const levels = new Map<string, IgnoreLevel>()
  // A few reads at a time: thousands of `.gitignore` files opened at once run out of descriptors
  // (EMFILE), and a rule file that cannot be read would silently count as none.
  const queue = [...folders]
  const reader = async () => {
    for (let folder = queue.pop(); folder !== undefined; folder = queue.pop()) {
      const level = await levelOf(absolute(folder))
      if (level) levels.set(folder, level)
    }
  }
  await Promise.all(Array.from({ length: PARALLEL_READS }, reader))
  if (levels.size === 0) return [...names]
  let rules = 0
  for (const level of levels.values()) rules += level.size
  if (names.length * rules > FILTER_BUDGET) return undefined
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

/**
 * Path-against-rule tests worth doing here rather than running rg a second time: ~0.2 s of `ignore`'s
 * tests. Measured on a 60,000-file tree under 600 rules, all names through the filter took 5.4 s, rg's
 * own type filter 0.9 s (docs/decisions/0330-search-at-ripgrep-speed.md). Not a setting: either way the
 * answer is the same, only the time differs.
 */
const FILTER_BUDGET = 2_000_000

/** `.gitignore` files read at the same time. */
const PARALLEL_READS = 8

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
