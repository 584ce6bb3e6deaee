// The walk's `.gitignore` rules applied to names rg listed with `--glob`. rg's globs override ignore
// rules: `--glob=*.d.ts` also lists a `*.d.ts` file a `.gitignore` excludes, and walks into an ignored
// folder whose own name ends with `.d.ts`. Its file types keep the rules, but cost rg itself about 5 ms
// more on P9's 20,000-file tree (docs/decisions/0330-search-at-ripgrep-speed.md). So `glob` asks rg for the
// names and for every `.gitignore` rg passed on the way (`--glob=.gitignore`), and this drops what the
// walk would not have listed: the same rules (walk.ts's `isIgnored`), tested for the few names listed and
// their folders. With no `.gitignore` listed there are no rules, and nothing is read.
import { join } from 'node:path'
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
  if (gitignores.length === 0) return [...names]
  const levels = new Map<string, IgnoreLevel>()
  await Promise.all(
    gitignores.map(async (name) => {
      const folder = name === '.gitignore' ? '' : name.slice(0, -'/.gitignore'.length)
      const level = await levelOf(folder === '' ? start : join(start, folder))
      if (level) levels.set(folder, level)
    }),
  )
  if (levels.size === 0) return [...names]
  const absolute = (relative: string) => (relative === '' ? start : join(start, relative))
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

/** The folder holding `name` (relative), `''` for the start folder itself. */
function parentOf(name: string): string {
  const at = name.lastIndexOf('/')
  return at < 0 ? '' : name.slice(0, at)
}
