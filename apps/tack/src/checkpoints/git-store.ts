// tack's own git object store of a workspace's working tree (docs/decisions/0305-checkpoints-and-rewind.md).
// One bare repository per workspace under `$TACK_HOME/checkpoints/`, driven with `--work-tree=<workspace>`
// and an index file of its own, so the user's repository (its HEAD, index, refs, config and hooks) is never
// read or written. Nothing of the user's or the workspace's git configuration applies: the environment is
// built from scratch (no GIT_* variable of the caller's passes), global and system config are off, hooks
// and fsmonitor are off, and `info/attributes` unsets every attribute that converts content (`text`, `eol`,
// `filter`, `ident`, `working-tree-encoding`) — it outranks the workspace's `.gitattributes` — so a snapshot
// is the bytes on disk and restoring writes them back byte for byte, and no filter driver ever runs.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { chmod, lstat, mkdir, readdir, writeFile } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'

/** Settings every git call gets on its command line (they outrank any config file). */
const GIT_SETTINGS = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.attributesFile=/dev/null',
  'core.excludesFile=/dev/null',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.symlinks=true',
  'core.fileMode=true',
  'core.quotePath=false',
  'core.untrackedCache=true',
  'core.splitIndex=false',
  'index.version=4',
  'core.looseCompression=1',
  'gc.auto=0',
  'maintenance.auto=false',
  'advice.addEmbeddedRepo=false',
  'advice.addIgnoredFile=false',
]

const PATHSPEC_LIMIT = 200

/** `info/attributes` outranks `.gitattributes`: every path is stored and restored as plain bytes. */
const NEUTRAL_ATTRIBUTES = '* -text -eol -filter -ident -working-tree-encoding -diff -merge -export-subst\n'

export interface GitStoreOptions {
  /** `$TACK_HOME/checkpoints`. */
  readonly root: string
  /** The workspace's real path. */
  readonly workspace: string
}

export interface Snapshot {
  /** The tree object of the working tree as it was. */
  readonly tree: string
  /** Files left out because they are larger than the limit (relative paths, with their sizes). */
  readonly skipped: readonly { path: string; bytes: number }[]
}

export type ChangeKind = 'added' | 'modified' | 'deleted'
export interface FileChange {
  readonly path: string
  readonly kind: ChangeKind
}

/** The store of one workspace: `<root>/<sha256(workspace) prefix>.git`. */
export function storeDir(root: string, workspace: string): string {
  const id = createHash('sha256').update(workspace).digest('hex').slice(0, 20)
  return join(root, `${id}.git`)
}

export class GitStore {
  readonly dir: string
  readonly #workspace: string
  /** The store's own folder relative to the workspace when it lies inside it (a TACK_HOME in the repository). */
  readonly #inside: string | undefined
  readonly #env: NodeJS.ProcessEnv

  constructor(opts: GitStoreOptions) {
    this.dir = storeDir(opts.root, opts.workspace)
    this.#workspace = opts.workspace
    const rel = relative(opts.workspace, this.dir)
    this.#inside = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : undefined
    this.#env = {
      // Only what git needs to find itself; none of the caller's GIT_* variables (GIT_DIR, GIT_INDEX_FILE,
      // GIT_CONFIG_PARAMETERS, GIT_ALTERNATE_OBJECT_DIRECTORIES…) reaches it.
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.dir,
      LANG: 'C',
      LC_ALL: 'C',
      GIT_DIR: this.dir,
      GIT_WORK_TREE: opts.workspace,
      GIT_INDEX_FILE: join(this.dir, 'tack-index'),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
    }
  }

  /** Runs git in the store with the workspace as its work tree; rejects with git's stderr. */
  git(args: readonly string[], input?: string, extraEnv?: NodeJS.ProcessEnv): Promise<string> {
    const argv = [...GIT_SETTINGS.flatMap((s) => ['-c', s]), ...args]
    return new Promise((resolve, reject) => {
      // The store holds copies of the workspace's files: git runs with umask 077, so every object, ref
      // and index it writes is private (0600 in 0700 folders, docs/decisions/0145-private-files.md) —
      // except a command that writes the work tree (`-u`), whose files must get the person's own modes
      // (its index is made private after it). A child takes the umask of the moment it is spawned; it is
      // put back before anything else runs.
      const umask = args.includes('-u') ? process.umask() : process.umask(0o077)
      let child: ReturnType<typeof execFile>
      try {
        child = execFile(
          'git',
          argv,
          {
            cwd: this.#workspace,
            env: withEnv(this.#env, extraEnv),
            maxBuffer: 256 * 1024 * 1024,
            encoding: 'utf8',
          },
          (error, stdout, stderr) => {
            if (error) reject(new Error(`git ${args[0]}: ${stderr.trim() || error.message}`))
            else resolve(stdout)
          },
        )
      } finally {
        process.umask(umask)
      }
      if (input !== undefined) child.stdin?.end(input)
    })
  }

  /** Creates the bare store on first use (no template: no sample hooks, no copied config). */
  async ensure(): Promise<void> {
    if (existsSync(join(this.dir, 'HEAD'))) return
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    // `init` takes the folder as its argument and refuses a work tree, so neither variable is passed.
    await this.git(['init', '--bare', '--quiet', '--template=', this.dir], undefined, {
      GIT_DIR: undefined,
      GIT_WORK_TREE: undefined,
    })
    mkdirSync(join(this.dir, 'info'), { recursive: true, mode: 0o700 })
    writeFileSync(join(this.dir, 'info', 'attributes'), NEUTRAL_ATTRIBUTES, { mode: 0o600 })
    writeFileSync(join(this.dir, 'tack-workspace'), `${this.#workspace}\n`, { mode: 0o600 })
  }

  /**
   * Records the working tree (the workspace's ignore rules honoured) and returns its tree. Files over
   * `maxFileBytes` are left out of it and named in `skipped`. After the first call git re-reads only
   * files whose stat changed, so the cost follows what changed, not the repository's size.
   */
  async snapshot(maxFileBytes: number): Promise<Snapshot> {
    await this.ensure()
    // One stat pass finds what changed since the last snapshot (new, modified, deleted); only those
    // paths are handed to `add`, so an unchanged 10,000-file tree costs a stat pass and a write-tree.
    // Two listings side by side: asked together, git takes longer than for both apart.
    const [others, modified] = await Promise.all([
      this.git(['ls-files', '-z', '--others', '--exclude-standard']),
      this.git(['ls-files', '-z', '--modified']),
    ])
    // A store inside the workspace must never record itself.
    const own = this.#inside
    const changed = [...new Set(`${others}${modified}`.split('\0').filter(Boolean))].filter(
      (p) => own === undefined || (p !== own && !p.startsWith(`${own}/`)),
    )
    const skipped = await this.#oversized(changed, maxFileBytes)
    const tooBig = new Set(skipped.map((s) => s.path))
    const wanted = changed.filter((p) => !tooBig.has(p))
    // Git matches every pathspec against every path, so past a few hundred changed paths (the first
    // snapshot) the whole tree is added instead, the oversized files excluded. So is it when a listed
    // path can no longer be named (a folder replaced by a symbolic link: "beyond a symbolic link").
    const whole = [
      '.',
      ...skipped.map((s) => `:(exclude,literal)${s.path}`),
      ...(own ? [`:(exclude,literal)${own}`] : []),
    ]
    const add = (pathspec: readonly string[]) => this.#add(pathspec)
    if (wanted.length > PATHSPEC_LIMIT) await add(whole)
    else if (wanted.length > 0) await add(wanted.map((p) => `:(literal)${p}`)).catch(() => add(whole))
    if (skipped.length > 0)
      // A file already in the index that has since grown past the limit leaves the snapshot too.
      // `--force`: the store has no HEAD, so without it git refuses an entry that differs from the file
      // ("staged content different from both the file and the HEAD") and every snapshot after fails.
      // With `--cached` only the index entry goes; the file is not touched.
      await this.git(
        [
          'rm',
          '--cached',
          '--force',
          '--quiet',
          '--ignore-unmatch',
          '--pathspec-from-file=-',
          '--pathspec-file-nul',
        ],
        `${skipped.map((s) => `:(literal)${s.path}`).join('\0')}\0`,
      )
    const tree = (await this.git(['write-tree'])).trim()
    return { tree, skipped }
  }

  /**
   * `add -A` of `pathspec`. A nested repository with no commit yet cannot be recorded (git fails the
   * whole add: "'x/' does not have a commit checked out"), so such a folder is excluded and the add
   * retried: left out of the snapshot, and so never touched by a restore, rather than no snapshot at all.
   */
  async #add(pathspec: readonly string[]): Promise<void> {
    const excluded: string[] = []
    for (;;) {
      try {
        await this.git(
          ['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'],
          `${[...pathspec, ...excluded].join('\0')}\0`,
        )
        return
      } catch (error) {
        const nested = /'(.+?)\/?' does not have a commit checked out/.exec(String(error))?.[1]
        const spec = `:(exclude,literal)${nested}`
        if (nested === undefined || excluded.includes(spec) || excluded.length >= 100) throw error
        excluded.push(spec)
      }
    }
  }

  /** Which of `paths` are regular files larger than `max` bytes. */
  async #oversized(paths: readonly string[], max: number): Promise<{ path: string; bytes: number }[]> {
    if (paths.length === 0) return []
    const sizes = await Promise.all(
      paths.map(async (path) => {
        try {
          const st = await lstat(join(this.#workspace, path))
          return st.isFile() && st.size > max ? { path, bytes: st.size } : undefined
        } catch {
          return undefined // deleted since: git records the deletion
        }
      }),
    )
    return sizes.filter((s): s is { path: string; bytes: number } => s !== undefined)
  }

  /** Keeps `tree` alive under `refs/tack/<name>` until pruned. */
  async keep(name: string, tree: string): Promise<void> {
    // A loose ref is one line naming the object; writing it spares a git process per turn. Names are
    // tack's own (digits, a session id, a turn), so no ref-name rule can be broken.
    if (!/^[0-9a-zA-Z._-]+$/.test(name) || !/^[0-9a-f]{40,64}$/.test(tree))
      throw new Error(`bad checkpoint ref ${name} ${tree}`)
    await mkdir(join(this.dir, 'refs', 'tack'), { recursive: true, mode: 0o700 })
    await writeFile(join(this.dir, 'refs', 'tack', name), `${tree}\n`, { mode: 0o600 })
  }

  /** What changed from tree `from` to tree `to`, sorted by path. */
  async changes(from: string, to: string): Promise<FileChange[]> {
    if (from === to) return []
    const out = await this.git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to])
    const parts = out.split('\0').filter(Boolean)
    const list: FileChange[] = []
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i]
      const path = parts[i + 1] as string
      list.push({ path, kind: status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified' })
    }
    return list.sort((a, b) => (a.path < b.path ? -1 : 1))
  }

  /**
   * Makes the working tree `tree` again: snapshot it now (the current state, kept so a rewind can be
   * undone), then move from that to `tree` the way `git checkout` does — changed files rewritten, files
   * the target lacks deleted, missing ones recreated. Paths in `keep` are carried over as they are now
   * (files the target could not record because they were too large). Ignored files are never touched:
   * they are in neither tree. Returns the current tree and what changed.
   */
  async restore(
    tree: string,
    maxFileBytes: number,
    keep: readonly string[],
  ): Promise<{ before: Snapshot; changes: FileChange[] }> {
    const before = await this.snapshot(maxFileBytes)
    let target = tree
    const carried = keep.length > 0 ? await this.#lsTree(before.tree, keep) : ''
    if (carried) {
      const tmpIndex = join(this.dir, 'tack-index.restore')
      const env = { GIT_INDEX_FILE: tmpIndex }
      await this.#gitWith(env, ['read-tree', tree])
      await this.#gitWith(env, ['update-index', '--add', '--index-info'], carried)
      target = (await this.#gitWith(env, ['write-tree'])).trim()
    }
    const changes = await this.changes(before.tree, target)
    // The files as they are now (hand edits made since the session among them) are kept by a ref of
    // their own before anything is written, so a prune cannot take them and the rewind can be undone.
    if (changes.length > 0)
      await this.keep(`${Date.now().toString().padStart(15, '0')}-before-rewind`, before.tree)
    // Git's checkout treats ignored files as expendable (even in a two-tree merge): one in the way of a
    // restored file would be deleted, and no snapshot holds it. Refuse first, naming them.
    const inTheWay = await this.#ignoredInTheWay(before.tree, target)
    if (inTheWay.length > 0)
      throw new Error(
        `restoring would delete ignored files no checkpoint holds; move them away first: ${inTheWay.slice(0, 5).join(', ')}${inTheWay.length > 5 ? ` (+${inTheWay.length - 5} more)` : ''}`,
      )
    // The index is `before` (just written), so a two-tree merge moves index and work tree from it to the
    // target; unlike `--reset` it refuses to overwrite untracked files (a file now too large to record).
    await this.git(['read-tree', '-m', '-u', before.tree, target])
    await chmod(join(this.dir, 'tack-index'), 0o600).catch(() => undefined)
    return { before, changes }
  }

  /**
   * The ignored paths (a collapsed ignored folder ends in `/`) a move from `from` to `to` would delete or
   * overwrite: one where `to` has a file, one under a path where `to` has a file (the folder must go), an
   * ignored file where `to` has a folder, and a file of `to` that `from` lacks inside an ignored folder.
   */
  async #ignoredInTheWay(from: string, to: string): Promise<string[]> {
    const ignored = (
      await this.git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'])
    )
      .split('\0')
      .filter(Boolean)
    if (ignored.length === 0) return []
    const [toEntries, fromEntries] = await Promise.all([this.#entries(to), this.#entries(from)])
    const own = this.#inside
    const hits: string[] = []
    for (const entry of ignored) {
      const isDir = entry.endsWith('/')
      const path = isDir ? entry.slice(0, -1) : entry
      if (own !== undefined && (path === own || path.startsWith(`${own}/`) || own.startsWith(`${path}/`)))
        continue
      const parts = path.split('/')
      const blocked = parts.some((_, i) => {
        const prefix = parts.slice(0, i + 1).join('/')
        return toEntries.get(prefix) === 'file' && fromEntries.get(prefix) !== 'file'
      })
      let hit = blocked
      if (!hit && toEntries.get(path) === 'tree') {
        if (!isDir) hit = true
        else
          for (const [p, kind] of toEntries)
            if (
              kind === 'file' &&
              p.startsWith(`${path}/`) &&
              !fromEntries.has(p) &&
              existsSync(join(this.#workspace, p))
            ) {
              hit = true
              break
            }
      }
      if (hit) hits.push(entry)
    }
    return hits
  }

  /** Every path of `tree` with whether it is a folder or a file (blob, link or gitlink). */
  async #entries(tree: string): Promise<Map<string, 'tree' | 'file'>> {
    const out = await this.git(['ls-tree', '-r', '-t', '-z', '--full-tree', tree])
    const map = new Map<string, 'tree' | 'file'>()
    for (const line of out.split('\0')) {
      const tab = line.indexOf('\t')
      if (tab < 0) continue
      map.set(line.slice(tab + 1), line.split(' ')[1] === 'tree' ? 'tree' : 'file')
    }
    return map
  }

  async #lsTree(tree: string, paths: readonly string[]): Promise<string> {
    const out = await this.git([
      'ls-tree',
      '-r',
      '-z',
      '--full-tree',
      tree,
      '--',
      ...paths.map((p) => `:(literal)${p}`),
    ])
    return out
      .split('\0')
      .filter(Boolean)
      .map((l) => `${l}\n`)
      .join('')
  }

  #gitWith(extra: NodeJS.ProcessEnv, args: readonly string[], input?: string): Promise<string> {
    return this.git(args, input, extra)
  }

  /** A shell command that writes back every file of `tree` (one `restore` kept) into the workspace. */
  undoCommand(tree: string): string {
    const dir = /^[\w./-]+$/.test(this.dir) ? this.dir : `'${this.dir.replace(/'/g, `'\\''`)}'`
    return `git --git-dir=${dir} --work-tree=. checkout ${tree} -- .`
  }

  /** Deletes the oldest kept trees past `keep` and drops objects nothing refers to any more. */
  async prune(keep: number): Promise<number> {
    // Refs are written loose (this store never packs them): counting the files spares a git process per turn.
    const loose = await readdir(join(this.dir, 'refs', 'tack')).catch(() => [])
    if (loose.length <= keep) return 0
    const out = await this.git(['for-each-ref', '--format=%(refname)', '--sort=refname', 'refs/tack/'])
    const refs = out.split('\n').filter(Boolean)
    const extra = refs.slice(0, Math.max(0, refs.length - keep))
    if (extra.length === 0) return 0
    await this.git(['update-ref', '--stdin'], extra.map((r) => `delete ${r}\n`).join(''))
    // The index holds the newest snapshot's blobs, which stay; everything only the deleted refs reached goes.
    await this.git(['prune', '--expire=now'])
    return extra.length
  }
}

/** `base` with `extra` laid over it; a key set to undefined is removed. */
function withEnv(base: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const env = { ...base, ...extra }
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key]
  return env
}
