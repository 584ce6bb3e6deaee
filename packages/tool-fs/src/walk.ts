// The directory walk behind `glob` and `grep` (TL-16): pure Node, `.git` skipped, `.gitignore` rules
// honoured (every `.gitignore` from the workspace root down, each relative to its own folder, deeper
// files overriding shallower ones, negations included), symlinks listed but never followed.
// Entries come out in code-unit order of their full path: a folder sorts as its name plus `/`, which
// makes this depth-first order equal to sorting the complete list, so callers can stop at a cap.
import type { Dirent } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { isInside } from './workspace.ts'

export interface WalkEntry {
  /** Absolute real path. */
  readonly path: string
  /** Relative to the walk's start folder, `/`-separated. */
  readonly relative: string
  readonly kind: 'file' | 'symlink'
}

export interface IgnoreLevel {
  readonly base: string
  readonly rules: Ignore
  /** How many rule lines the file holds (what one test of a path against it costs). */
  readonly size: number
}

/** Files (and symlinks) under `start`, in path order. `root` is the workspace root (real path). */
export async function* walkFiles(
  root: string,
  start: string,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry> {
  // One generator with a stack of open folders, not one generator per folder delegating with
  // `yield*`: each entry then resumes one generator instead of one per folder level above it
  // (docs/decisions/0330-search-at-ripgrep-speed.md).
  const stack: OpenFolder[] = []
  const top = await openFolder(start, await ancestorLevels(root, start), signal)
  if (top) stack.push(top)
  while (stack.length > 0) {
    const folder = stack[stack.length - 1]
    const entry = folder.entries[folder.next++]
    if (entry === undefined) {
      stack.pop()
      continue
    }
    // A folder's path and an entry's name are normalised: the concatenation is what `join` gives.
    const path = folder.base + entry.name
    const isDir = entry.isDirectory()
    if (isIgnored(folder.levels, path, isDir)) continue
    if (isDir) {
      const inner = await openFolder(path, folder.levels, signal)
      if (inner) stack.push(inner)
    } else if (entry.isSymbolicLink()) yield { path, relative: below(start, path), kind: 'symlink' }
    else if (entry.isFile()) yield { path, relative: below(start, path), kind: 'file' }
  }
}

/** A folder being walked: its entries in path order and the next one to visit. */
interface OpenFolder {
  /** The folder's path with a trailing separator. */
  readonly base: string
  readonly levels: readonly IgnoreLevel[]
  readonly entries: readonly Dirent[]
  next: number
}

async function openFolder(
  folder: string,
  inherited: readonly IgnoreLevel[],
  signal: AbortSignal | undefined,
): Promise<OpenFolder | undefined> {
  signal?.throwIfAborted()
  let entries: Dirent[]
  try {
    entries = await readdir(folder, { withFileTypes: true })
  } catch {
    return undefined // unreadable or vanished folders are skipped, as git does
  }
  // Only a folder listing a `.gitignore` has one to read: no failed open per folder.
  const own = entries.some((entry) => entry.name === '.gitignore') ? await levelOf(folder) : undefined
  const sorted = entries
    .filter((entry) => entry.name !== '.git')
    .map((entry) => ({ entry, key: entry.isDirectory() ? `${entry.name}/` : entry.name }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ entry }) => entry)
  return {
    base: folder.endsWith(sep) ? folder : folder + sep,
    levels: own ? [...inherited, own] : inherited,
    entries: sorted,
    next: 0,
  }
}

/** `path` relative to its ancestor `base`, `/`-separated; slicing is what `relative` would give here,
 * and the walk calls this for every entry and every ignore level. */
function below(base: string, path: string): string {
  const rel = path.slice(base.endsWith(sep) ? base.length : base.length + 1)
  return sep === '/' ? rel : rel.split(sep).join('/')
}

/** Git's rule: the deepest `.gitignore` with a say about the path decides (a negation re-includes). */
export function isIgnored(levels: readonly IgnoreLevel[], path: string, isDir: boolean): boolean {
  let ignored = false
  for (const level of levels) {
    if (!isInside(level.base, path) || path === level.base) continue
    const rel = below(level.base, path) + (isDir ? '/' : '')
    const verdict = level.rules.test(rel)
    if (verdict.ignored) ignored = true
    else if (verdict.unignored) ignored = false
  }
  return ignored
}

/** The `.gitignore` levels of the folders from the workspace root down to `start`'s parent. */
async function ancestorLevels(root: string, start: string): Promise<IgnoreLevel[]> {
  if (!isInside(root, start) || start === root) return []
  const folders: string[] = []
  for (let folder = dirname(start); isInside(root, folder); folder = dirname(folder)) {
    folders.unshift(folder)
    if (folder === root) break
  }
  const levels = await Promise.all(folders.map(levelOf))
  return levels.filter((level): level is IgnoreLevel => level !== undefined)
}

/** The rules of `folder`'s `.gitignore`, undefined when it has none that can be read. */
export async function levelOf(folder: string): Promise<IgnoreLevel | undefined> {
  let text: string
  try {
    text = await readFile(join(folder, '.gitignore'), 'utf8')
  } catch {
    return undefined
  }
  const size = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')).length
  return { base: folder, rules: ignore().add(text), size }
}

/** True when a `.gitignore` between the workspace root and `start` (exclusive) has a say below it. */
export async function hasRulesAbove(root: string, start: string): Promise<boolean> {
  return (await ancestorLevels(root, start)).length > 0
}
