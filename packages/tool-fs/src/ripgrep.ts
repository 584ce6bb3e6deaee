// ripgrep as the file finder of `glob` and `grep` (issue 12.4): `rg --files` lists the files the walk
// would (same `.gitignore` rules, `.git` skipped, dot files included, symlinks not followed) and
// `rg --json -F` narrows `grep` to the files holding the pattern's required literal. rg never decides a
// match: the JavaScript RegExp does, so results are the pure-Node path's (see docs/decisions/0040).
import { spawn } from 'node:child_process'
import { findOnPath, isExecutable } from '@tack/process'
import { isGitignoreName, withoutIgnored } from './ignored-names.ts'
import { JsonFileNames } from './ripgrep-json.ts'

/**
 * Flags that make rg's ignore rules the walk's: only `.gitignore` files (no `.ignore`, `.rgignore`,
 * global excludes or `.git/info/exclude`), honoured outside a git repository too, none read above
 * the start folder (the caller falls back to the walk when the workspace has rules above it).
 */
const WALK_FLAGS = [
  '--hidden',
  '--no-require-git',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--no-ignore-parent',
  '--no-config',
  '--glob=!.git',
]

const onPath = new Map<string, Promise<string | undefined>>()
const warned = new Set<string>()

/**
 * The rg binary the `ripgrep` setting names: `off` none, `auto` the first `rg` on PATH, else the
 * configured absolute path (a missing one warns once on stderr and the pure-Node path runs).
 */
export async function ripgrepBinary(setting: string): Promise<string | undefined> {
  if (setting === 'off') return undefined
  if (setting !== 'auto') {
    if (await isExecutable(setting)) return setting
    if (!warned.has(setting)) {
      warned.add(setting)
      process.stderr.write(
        `tack: ripgrep ${setting} is not an executable file; grep and glob search without it\n`,
      )
    }
    return undefined
  }
  const path = process.env.PATH ?? ''
  let found = onPath.get(path)
  if (!found) {
    found = findOnPath('rg', path)
    onPath.set(path, found)
  }
  return found
}

/**
 * The regular files under `start` (relative, `/`-separated, sorted unless `sorted` is false — a count
 * needs no order; only names ending with `nameSuffix` when given), or undefined when rg failed.
 */
export function ripgrepFiles(
  rg: string,
  start: string,
  signal: AbortSignal,
  nameSuffix?: string,
  sorted = true,
): Promise<string[] | undefined> {
  if (nameSuffix === undefined)
    return runRipgrep(rg, ['--files', '--null', ...WALK_FLAGS], start, signal, new NulNames(), sorted)
  // Only a plain name ending is given to rg as a glob: rg reads `--glob` with gitignore syntax (a
  // trailing `.` or space is dropped, quotes are literal where picomatch strips them), so anything else
  // is listed whole and matched by the tool alone.
  if (!PLAIN_SUFFIX.test(nameSuffix))
    return runRipgrep(rg, ['--files', '--null', ...WALK_FLAGS], start, signal, new NulNames(), sorted)
  return ripgrepFilesEnding(rg, start, signal, nameSuffix, sorted)
}

/** A name ending rg's globs and picomatch read alike: letters, digits, `.`, `_`, `-`, not ending in `.`. */
const PLAIN_SUFFIX = /^[A-Za-z0-9._-]*[A-Za-z0-9_-]$/

/**
 * Names ending with `suffix` by rg's `--glob`, which overrides `.gitignore` rules (a file type would
 * not, but costs rg more): rg also lists every `.gitignore` it passed, and ignored-names.ts applies
 * their rules to what it found.
 */
async function ripgrepFilesEnding(
  rg: string,
  start: string,
  signal: AbortSignal,
  suffix: string,
  sorted: boolean,
): Promise<string[] | undefined> {
  // `!.git` again last: of rg's globs the last that matches wins, and `*it` would otherwise re-include
  // `.git` and walk into it.
  const only = [`--glob=*${suffix}`, '--glob=.gitignore', '--glob=!.git']
  const args = ['--files', '--null', ...WALK_FLAGS, ...only]
  const listed = await runRipgrep(rg, args, start, signal, new NulNames(), sorted)
  if (!listed) return undefined
  const gitignores = listed.filter(isGitignoreName)
  const names = gitignores.length === 0 ? listed : listed.filter((name) => name.endsWith(suffix))
  const kept = await withoutIgnored(start, names, gitignores)
  if (kept) return kept
  // Too many names under too many rules to test here: rg's file type keeps the rules itself.
  const typed = [`--type-add=tackname:*${suffix}`, '--type=tackname']
  return runRipgrep(rg, ['--files', '--null', ...WALK_FLAGS, ...typed], start, signal, new NulNames(), sorted)
}

/**
 * The files under `start` holding `literal` (as text, NULs or not: the caller applies its own binary
 * rule), or undefined when rg failed. `ignoreCase` is only asked for ASCII literals, where rg's case
 * folding covers JavaScript's.
 */
export function ripgrepFilesWith(
  rg: string,
  start: string,
  literal: string,
  ignoreCase: boolean,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  // JSON, not `--files-with-matches --null`: as exact, and not held up (ripgrep-json.ts). One match
  // a file is all a listing needs.
  const flags = ['--json', '--max-count=1', '--fixed-strings', '--text', ignoreCase ? '-i' : '-s']
  return runRipgrep(rg, [...flags, ...WALK_FLAGS, '-e', literal], start, signal, new JsonFileNames())
}

/** Reads rg's standard output into file names; undefined when it was not a listing. */
interface NameReader {
  push(chunk: Buffer): void
  names(): string[] | undefined
}

/** `--null` output: names ended by NUL. */
class NulNames implements NameReader {
  private readonly chunks: Buffer[] = []
  push(chunk: Buffer): void {
    this.chunks.push(chunk)
  }
  names(): string[] {
    return Buffer.concat(this.chunks)
      .toString('utf8')
      .split('\0')
      .filter((path) => path !== '')
  }
}

/** Runs rg in `start`; exit 0 or 1 (nothing found) is a listing, anything else undefined. */
function runRipgrep(
  rg: string,
  args: string[],
  start: string,
  signal: AbortSignal,
  reader: NameReader,
  sorted = true,
): Promise<string[] | undefined> {
  signal.throwIfAborted()
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd: start, stdio: ['ignore', 'pipe', 'ignore'], signal })
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk))
    child.on('error', () => (signal.aborted ? reject(signal.reason) : resolve(undefined)))
    child.on('close', (code) => {
      if (signal.aborted) return reject(signal.reason)
      if (code !== 0 && code !== 1) return resolve(undefined)
      const paths = reader.names()
      // rg names files `./x` only when given a path; given none it names them `x`. Code-unit order
      // of the whole path is the walk's order (a folder sorts as its name plus `/`).
      resolve(paths && sorted ? paths.sort() : paths)
    })
  })
}
