// The paths the prompt box's `@` completion offers (85-skills-and-commands.md I1,
// docs/decisions/0280-file-mentions.md): the files git would see — `git ls-files --cached --others
// --exclude-standard`, so `.gitignore` is git's own — plus the folders above them; outside a git
// repository, a breadth-first walk that honours every `.gitignore` and never enters `.git` or
// `node_modules` (nor lists an untracked one in a repository). Both stop at `mentionIndexMaxFiles`.
// Kept per folder: a key is answered from what is known, and a list older than REFRESH_MS is rebuilt in
// the background, so typing never waits on a listing after the first.
//
// git runs with `core.fsmonitor` off: a repository's `.git/config` may name a program as its file
// system monitor (docs/decisions/0012-protected-files.md), and an untrusted workspace runs nothing.
import { spawn } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import ignore, { type Ignore } from 'ignore'

/** A list this old is rebuilt (in the background) at the next key. */
const REFRESH_MS = 5000
/** A listing that takes longer is cut short: what it found so far is used. */
const LIST_TIMEOUT_MS = 10_000

interface Known {
  paths: readonly string[]
  at: number
  building?: Promise<readonly string[]>
}

export class FileIndex {
  readonly #known = new Map<string, Known>()
  readonly #max: () => number

  constructor(max: () => number) {
    this.#max = max
  }

  /** The workspace's paths (`a/b.ts`, folders as `a/`), relative to `cwd`. */
  async paths(cwd: string): Promise<readonly string[]> {
    const known = this.#known.get(cwd)
    if (!known) {
      const entry: Known = { paths: [], at: 0 }
      this.#known.set(cwd, entry)
      return this.#rebuild(cwd, entry)
    }
    if (!known.building && Date.now() - known.at > REFRESH_MS) void this.#rebuild(cwd, known)
    return known.building && known.at === 0 ? known.building : known.paths
  }

  #rebuild(cwd: string, entry: Known): Promise<readonly string[]> {
    const building = listPaths(cwd, this.#max()).then(
      (paths) => {
        entry.paths = paths
        return paths
      },
      () => entry.paths,
    )
    entry.building = building.finally(() => {
      entry.at = Date.now()
      entry.building = undefined
    })
    return entry.building
  }
}

/** Files git would see under `cwd`, else a walk's; folders added; at most `max` files. */
export async function listPaths(cwd: string, max: number): Promise<string[]> {
  const files = (await gitFiles(cwd, max)) ?? (await walkedFiles(cwd, max))
  return withFolders(files)
}

function withFolders(files: readonly string[]): string[] {
  const folders = new Set<string>()
  for (const file of files) {
    for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1))
      folders.add(file.slice(0, at + 1))
  }
  return [...folders, ...files]
}

/** `git ls-files` in `cwd`, or undefined when it is no repository (or git is missing or fails). */
function gitFiles(cwd: string, max: number): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    // `--exclude` applies to untracked files only: an unignored `node_modules` is left out, a vendored one
    // that is committed is kept.
    const args = [
      '-c',
      'core.fsmonitor=false',
      'ls-files',
      '--cached',
      '--others',
      '--exclude-standard',
      '--exclude=node_modules/',
      '-z',
    ]
    const child = spawn('git', args, {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    })
    const files = new Set<string>()
    let rest = ''
    let full = false
    const timer = setTimeout(() => stop(), LIST_TIMEOUT_MS)
    const stop = () => {
      full = true
      child.kill()
    }
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      if (full) return
      const parts = (rest + chunk).split('\0')
      rest = parts.pop() ?? ''
      for (const part of parts) {
        if (part !== '') files.add(part)
        if (files.size >= max) return stop()
      }
    })
    child.on('error', () => {
      clearTimeout(timer)
      resolve(undefined)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve(code === 0 || full ? [...files] : undefined)
    })
  })
}

/** Breadth-first, `.gitignore`s honoured, `.git` and `node_modules` never entered; `max` files. */
async function walkedFiles(cwd: string, max: number): Promise<string[]> {
  const files: string[] = []
  const deadline = Date.now() + LIST_TIMEOUT_MS
  let level: { rel: string; rules: readonly { base: string; rules: Ignore }[] }[] = [{ rel: '', rules: [] }]
  while (level.length > 0 && files.length < max && Date.now() < deadline) {
    const next: typeof level = []
    for (const folder of level) {
      const abs = join(cwd, folder.rel)
      const entries = await readdir(abs, { withFileTypes: true }).catch(() => [])
      const own = await readFile(join(abs, '.gitignore'), 'utf8').then(
        (text) => ({ base: folder.rel, rules: ignore().add(text) }),
        () => undefined,
      )
      const rules = own ? [...folder.rules, own] : folder.rules
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (entry.name === '.git' || entry.name === 'node_modules') continue
        const rel = folder.rel + entry.name
        const isDir = entry.isDirectory()
        if (ignored(rules, rel, isDir)) continue
        if (isDir) next.push({ rel: `${rel}/`, rules })
        else if (entry.isFile() || entry.isSymbolicLink()) {
          files.push(rel)
          if (files.length >= max) return files
        }
      }
    }
    level = next
  }
  return files
}

/** Git's rule: the deepest `.gitignore` with a say decides (a negation re-includes). */
function ignored(levels: readonly { base: string; rules: Ignore }[], rel: string, isDir: boolean): boolean {
  let result = false
  for (const level of levels) {
    const verdict = level.rules.test(rel.slice(level.base.length) + (isDir ? '/' : ''))
    if (verdict.ignored) result = true
    else if (verdict.unignored) result = false
  }
  return result
}
