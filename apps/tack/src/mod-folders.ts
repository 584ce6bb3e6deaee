// Which Claude Code mod folders a run loads (65-mod-host.md requirement 1; docs/decisions/0070-mod-host.md),
// in this order, first outermost: `$TACK_HOME/mods/*` (the user's own, always), `plugins.mods.mods` from
// config (dirs already absolute: a relative one is relative to the config file that names it,
// docs/decisions/0130-config-relative-paths.md), `<workspace>/.tack/mods/*` (only in a trusted workspace:
// a mod is code that runs in tack's process), then `--mod DIR` flags (relative to the process's working
// folder, as a shell user expects). A folder counts as a mod when it holds `.claude-plugin/plugin.json`.
import { existsSync } from 'node:fs'
import { sortedEntries } from './dir-entries.ts'
import { join, resolve } from 'node:path'
import type { ModSpec } from '@tack/mods'
import type { Settings } from './config/load.ts'
import { projectModsPath, type TackPaths } from './paths.ts'

export interface FoundMods {
  readonly specs: readonly ModSpec[]
  /** Project mod folders that do not load because the workspace is untrusted. */
  readonly heldBack: readonly string[]
}

/** The mod folders directly inside `dir`, by name. */
export function modFoldersIn(dir: string): string[] {
  return sortedEntries(dir)
    .map((n) => join(dir, n))
    .filter((p) => existsSync(join(p, '.claude-plugin', 'plugin.json')))
}

function configured(settings: Settings): ModSpec[] {
  const mods = settings.plugins.mods
  if (!mods || !Array.isArray(mods.mods)) return []
  return mods.mods as ModSpec[]
}

export function findModFolders(
  settings: Settings,
  paths: TackPaths,
  cwd: string,
  trusted: boolean,
  flagDirs: readonly string[] = [],
  processCwd: string = process.cwd(),
): FoundMods {
  const specs: ModSpec[] = []
  const seen = new Set<string>()
  const push = (spec: ModSpec) => {
    const dir = resolve(processCwd, spec.dir)
    if (seen.has(dir)) return
    seen.add(dir)
    specs.push({ ...spec, dir })
  }
  for (const dir of modFoldersIn(paths.mods)) push({ dir })
  for (const spec of configured(settings)) push(spec)
  const project = modFoldersIn(projectModsPath(cwd))
  if (trusted) for (const dir of project) push({ dir })
  for (const dir of flagDirs) push({ dir })
  return { specs, heldBack: trusted ? [] : project }
}
