// Finding skills and command files in the folders the boot role lists (85-skills-and-commands.md K2, C1).
// Order of precedence on equal names: the user's folders before the workspace's (a repository cannot
// shadow a person's skills or commands), then a skill before a command (C2), then the folders' order.
// A workspace's files are words from a stranger: a project file whose real path leads outside the
// workspace (a symlink to ~/.ssh/…) is not read, every read is bounded and non-blocking, and the walk is
// bounded in depth and count, so a hostile tree cannot stall or fill tack.
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs'
import { basename, join, relative, sep } from 'node:path'
import { readBoundedText } from '@tack/kernel/bounded-file'
import type { KnowHowFolder } from './config.ts'
import { readCommand, readSkill } from './read-item.ts'
import type { KnowHowItem, KnowHowWarning } from './types.ts'

/** How deep a folder of skills or commands is walked: `group/sub/name/SKILL.md` is deep enough. */
export const MAX_DEPTH = 4
/** Items one folder may give; past it the rest are skipped with one warning. */
export const MAX_ITEMS_PER_FOLDER = 500
/**
 * Entries (files and folders, at every depth) one folder's walk may look at: a hostile workspace's
 * 100,000 empty folders or skills would otherwise be walked in full, seconds at every start.
 */
export const MAX_ENTRIES_PER_FOLDER = 5000

/** What is left of one folder's walk; the walk stops as soon as either runs out. */
interface WalkBudget {
  entries: number
  items: number
}

export interface Shadowed {
  readonly item: KnowHowItem
  /** The item of the same name that is used instead. */
  readonly by: KnowHowItem
}

export interface Discovery {
  /** Every usable item, one per name, sorted by name (code-unit order). */
  readonly items: readonly KnowHowItem[]
  readonly shadowed: readonly Shadowed[]
  readonly warnings: readonly KnowHowWarning[]
}

export interface DiscoverOptions {
  readonly folders: readonly KnowHowFolder[]
  /** The workspace: a project file must really be inside it. */
  readonly cwd?: string
  readonly maxFileBytes: number
}

export function discoverKnowHow(options: DiscoverOptions): Discovery {
  const warnings: KnowHowWarning[] = []
  const found: KnowHowItem[] = []
  const workspace = options.cwd ? realOrUndefined(options.cwd) : undefined
  for (const folder of options.folders) {
    const inside = (path: string) =>
      folder.scope === 'user' || (workspace !== undefined && isWithin(realOrUndefined(path), workspace))
    if (folder.configured && !isFolder(folder.dir)) {
      warnings.push({
        file: folder.dir,
        key: 'plugins.skills.paths',
        message: `${JSON.stringify(folder.label)} is not a folder; no skills read from it`,
      })
      continue
    }
    const budget: WalkBudget = { entries: MAX_ENTRIES_PER_FOLDER, items: MAX_ITEMS_PER_FOLDER }
    const walk = { folder, inside, options, found, warnings, budget }
    if (folder.kind === 'skill') walkSkills(walk, folder.dir, 0)
    else walkCommands(walk, folder.dir, [])
    if (budget.items < 0) {
      found.pop()
      warnings.push({
        file: folder.dir,
        message: `holds more than ${MAX_ITEMS_PER_FOLDER}; the rest are skipped`,
      })
    } else if (budget.entries < 0)
      warnings.push({
        file: folder.dir,
        message: `holds more than ${MAX_ENTRIES_PER_FOLDER} entries; the rest are skipped`,
      })
  }
  return rank(found, options.folders, warnings)
}

/** One folder's walk: where it is, what it found, and what is left of its budget. */
interface Walk {
  readonly folder: KnowHowFolder
  readonly inside: (path: string) => boolean
  readonly options: DiscoverOptions
  readonly found: KnowHowItem[]
  readonly warnings: KnowHowWarning[]
  readonly budget: WalkBudget
}

/** Spends one entry; false once the budget is spent (either part). */
function spend(budget: WalkBudget): boolean {
  if (budget.items < 0 || budget.entries < 0) return false
  budget.entries--
  return budget.entries >= 0
}

/** Keeps an item; one past the bound is kept so the caller knows to warn, then drops it. */
function keep(walk: Walk, item: KnowHowItem): void {
  walk.found.push(item)
  walk.budget.items--
}

function walkSkills(walk: Walk, dir: string, depth: number): void {
  const { folder, inside, options, warnings } = walk
  for (const entry of entriesOf(dir)) {
    if (!spend(walk.budget)) return
    if (skipName(entry.name)) continue
    const path = join(dir, entry.name)
    if (!isDirectory(entry, path)) continue
    const file = join(path, 'SKILL.md')
    if (exists(file)) {
      if (!inside(file)) {
        warnings.push({ file, message: 'leads outside the workspace; not read' })
        continue
      }
      const text = read(file, options.maxFileBytes, warnings)
      if (text === undefined) continue
      const r = readSkill(text, entry.name, { file, dir: path, scope: folder.scope, source: folder.label })
      warnings.push(...r.warnings)
      if (r.item) keep(walk, r.item)
    } else if (depth + 1 < MAX_DEPTH) walkSkills(walk, path, depth + 1)
  }
}

function walkCommands(walk: Walk, dir: string, parts: readonly string[]): void {
  const { folder, inside, options, warnings } = walk
  for (const entry of entriesOf(dir)) {
    if (!spend(walk.budget)) return
    if (skipName(entry.name)) continue
    const path = join(dir, entry.name)
    if (isDirectory(entry, path)) {
      if (parts.length + 1 < MAX_DEPTH) walkCommands(walk, path, [...parts, entry.name])
      continue
    }
    if (!entry.name.toLowerCase().endsWith('.md')) continue
    const name = [...parts, entry.name.slice(0, -3)].join(':')
    if (!COMMAND_NAME.test(name)) {
      warnings.push({
        file: path,
        message: `${JSON.stringify(name)} cannot be a command name (letters, digits, -, _, . and :); skipped`,
      })
      continue
    }
    if (!inside(path)) {
      warnings.push({ file: path, message: 'leads outside the workspace; not read' })
      continue
    }
    const text = read(path, options.maxFileBytes, warnings)
    if (text === undefined) continue
    const r = readCommand(text, name, { file: path, dir, scope: folder.scope, source: folder.label })
    warnings.push(...r.warnings)
    if (r.item) keep(walk, r.item)
  }
}

/** What a slash command name may be (packages/commands' own rule, without depending on it). */
const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/

/** Precedence: user before project, skill before command, then the folders' order. */
function rank(
  found: readonly KnowHowItem[],
  folders: readonly KnowHowFolder[],
  warnings: KnowHowWarning[],
): Discovery {
  const order = (item: KnowHowItem) => [
    item.scope === 'user' ? 0 : 1,
    item.kind === 'skill' ? 0 : 1,
    folders.findIndex((f) => f.label === item.source),
  ]
  const sorted = found
    .map((item, i) => ({ item, key: [...order(item), i] }))
    .sort((a, b) => {
      for (let k = 0; k < a.key.length; k++)
        if (a.key[k] !== b.key[k]) return (a.key[k] ?? 0) - (b.key[k] ?? 0)
      return 0
    })
  const byName = new Map<string, KnowHowItem>()
  const shadowed: Shadowed[] = []
  for (const { item } of sorted) {
    const winner = byName.get(item.name)
    if (winner) shadowed.push({ item, by: winner })
    else byName.set(item.name, item)
  }
  const items = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { items, shadowed, warnings }
}

function read(file: string, maxBytes: number, warnings: KnowHowWarning[]): string | undefined {
  const r = readBoundedText(file, maxBytes)
  if (r.ok) return r.text
  if (!r.missing) warnings.push({ file, message: `${r.problem}; skipped` })
  return undefined
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )
  } catch {
    return []
  }
}

/** Hidden folders (`.git`) and dependency trees are not where anyone keeps skills. */
function skipName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules'
}

function isDirectory(entry: Dirent, path: string): boolean {
  if (entry.isDirectory()) return true
  if (!entry.isSymbolicLink()) return false
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function exists(path: string): boolean {
  try {
    statSync(path)
    return true
  } catch {
    return false
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

function isWithin(path: string | undefined, root: string): boolean {
  if (path === undefined) return false
  const rel = relative(root, path)
  return (
    rel === '' ||
    (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && basename(rel) !== '')
  )
}
