// tack's checkpoint store against real git and real files (docs/decisions/0305-checkpoints-and-rewind.md):
// byte-for-byte restores, ignore rules, and hostile workspaces — filter drivers in the workspace's and the
// user's git config, .gitattributes that convert line ends, symlinks out of the workspace, huge files.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { GitStore } from '../src/checkpoints/git-store.ts'

let dirs: string[] = []
afterEach(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
  dirs = []
})

async function box() {
  const root = await mkdtemp(join(tmpdir(), 'tack-ckpt-'))
  dirs.push(root)
  const workspace = join(root, 'ws')
  await mkdir(workspace)
  const store = new GitStore({ root: join(root, 'checkpoints'), workspace })
  return { root, workspace, store }
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' })

/** Every file under `.git` with its SHA-256: HEAD, index, refs, config, hooks, objects. */
function gitDirDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = join(rel, name)
      if (statSync(join(dir, path)).isDirectory()) walk(path)
      else
        out[path] = createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex')
    }
  }
  walk('')
  return out
}

const BINARY = Buffer.from([0, 1, 2, 13, 10, 255, 254, 13, 13, 10])

describe('checkpoint store', () => {
  test('restores modified files byte for byte, recreates deleted ones, removes new ones, leaves ignored files alone', async () => {
    const { workspace, store } = await box()
    await writeFile(join(workspace, 'crlf.txt'), 'one\r\ntwo\r\n')
    await writeFile(join(workspace, 'bin.dat'), BINARY)
    await writeFile(join(workspace, '.gitignore'), 'cache/\n')
    await mkdir(join(workspace, 'cache'))
    await writeFile(join(workspace, 'cache', 'keep.txt'), 'ignored before\n')
    await mkdir(join(workspace, 'src', 'deep'), { recursive: true })
    await writeFile(join(workspace, 'src', 'deep', 'gone.ts'), 'export {}\n')
    const before = await store.snapshot(1 << 20)

    await writeFile(join(workspace, 'crlf.txt'), 'changed\n')
    await writeFile(join(workspace, 'bin.dat'), 'text now')
    await rm(join(workspace, 'src'), { recursive: true })
    await writeFile(join(workspace, 'new.txt'), 'x\n')
    await mkdir(join(workspace, 'made', 'since'), { recursive: true })
    await writeFile(join(workspace, 'made', 'since', 'n.txt'), 'n\n')
    await writeFile(join(workspace, 'cache', 'keep.txt'), 'ignored after\n')

    const { changes } = await store.restore(before.tree, 1 << 20, [])
    expect(changes).toEqual([
      { path: 'bin.dat', kind: 'modified' },
      { path: 'crlf.txt', kind: 'modified' },
      { path: 'made/since/n.txt', kind: 'deleted' },
      { path: 'new.txt', kind: 'deleted' },
      { path: 'src/deep/gone.ts', kind: 'added' },
    ])
    expect(await readFile(join(workspace, 'crlf.txt'), 'latin1')).toBe('one\r\ntwo\r\n')
    expect(await readFile(join(workspace, 'bin.dat'))).toEqual(BINARY)
    expect(await readFile(join(workspace, 'src', 'deep', 'gone.ts'), 'utf8')).toBe('export {}\n')
    // Recreated files get the person's usual modes (the umask of tack), not the store's private ones.
    const usual = 0o666 & ~process.umask()
    expect((await stat(join(workspace, 'src', 'deep', 'gone.ts'))).mode & 0o777).toBe(usual)
    expect((await stat(join(store.dir, 'tack-index'))).mode & 0o077).toBe(0)
    expect(existsSync(join(workspace, 'new.txt'))).toBe(false)
    expect(existsSync(join(workspace, 'made'))).toBe(false) // the folders it emptied go too
    expect(await readFile(join(workspace, 'cache', 'keep.txt'), 'utf8')).toBe('ignored after\n')
  })

  test("the user's repository is byte-identical and its filter drivers (repo and global config) never run", async () => {
    const { root, workspace, store } = await box()
    const marker = join(root, 'filter-ran')
    git(workspace, 'init', '-q')
    await writeFile(join(workspace, 'a.txt'), 'one\r\n')
    git(workspace, 'add', '.')
    git(workspace, 'commit', '-qm', 'init')
    // A hostile repository: a clean/smudge driver in its own config, attributes that convert line ends.
    git(workspace, 'config', 'filter.evil.clean', `touch ${marker}; cat`)
    git(workspace, 'config', 'filter.evil.smudge', `touch ${marker}; cat`)
    git(workspace, 'config', 'core.hooksPath', join(root, 'hooks'))
    await writeFile(
      join(workspace, '.gitattributes'),
      '* filter=evil text eol=crlf\n*.txt filter=glob ident\n',
    )
    // The user's global config defines the other driver the attributes name.
    const home = join(root, 'home')
    await mkdir(home)
    await writeFile(
      join(home, '.gitconfig'),
      `[filter "glob"]\n\tclean = touch ${marker}; cat\n\tsmudge = touch ${marker}; cat\n`,
    )
    const savedHome = process.env.HOME
    process.env.HOME = home
    try {
      const gitBefore = gitDirDigest(join(workspace, '.git'))
      await writeFile(join(workspace, 'lf.txt'), 'lf only\n$Id$\n')
      const snap = await store.snapshot(1 << 20)
      await writeFile(join(workspace, 'a.txt'), 'edited\n')
      await writeFile(join(workspace, 'lf.txt'), 'edited\n')
      await store.restore(snap.tree, 1 << 20, [])
      expect(existsSync(marker)).toBe(false)
      expect(await readFile(join(workspace, 'a.txt'), 'latin1')).toBe('one\r\n')
      expect(await readFile(join(workspace, 'lf.txt'), 'latin1')).toBe('lf only\n$Id$\n')
      expect(gitDirDigest(join(workspace, '.git'))).toEqual(gitBefore)
      // The store itself has no hooks and no config of the workspace's.
      expect(readFileSync(join(store.dir, 'config'), 'utf8')).not.toContain('evil')
      expect(existsSync(join(store.dir, 'hooks'))).toBe(false)
    } finally {
      process.env.HOME = savedHome
    }
  })

  test('symlinks are recorded as links: nothing outside the workspace is read into a snapshot or written by a restore', async () => {
    const { root, workspace, store } = await box()
    const outside = join(root, 'outside')
    await mkdir(outside)
    await writeFile(join(outside, 'secret.txt'), 'outside\n')
    await symlink(outside, join(workspace, 'out'))
    await mkdir(join(workspace, 'd'))
    await writeFile(join(workspace, 'd', 'f.txt'), 'inside\n')
    const snap = await store.snapshot(1 << 20)
    expect(await store.git(['ls-tree', '-r', '--name-only', snap.tree])).toBe('d/f.txt\nout\n')

    // The folder becomes a link out of the workspace: a restore replaces the link, never writes through it.
    await rm(join(workspace, 'd'), { recursive: true })
    await symlink(outside, join(workspace, 'd'))
    await writeFile(join(outside, 'secret.txt'), 'changed outside\n')
    await store.restore(snap.tree, 1 << 20, [])
    expect((await lstat(join(workspace, 'd'))).isDirectory()).toBe(true)
    expect(await readFile(join(workspace, 'd', 'f.txt'), 'utf8')).toBe('inside\n')
    expect(existsSync(join(outside, 'f.txt'))).toBe(false)
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('changed outside\n')
    expect(await readlink(join(workspace, 'out'))).toBe(outside)
  })

  test('files over the size limit are left out, named, and left alone by a restore', async () => {
    const { workspace, store } = await box()
    await writeFile(join(workspace, 'small.txt'), 'small\n')
    await writeFile(join(workspace, 'huge.bin'), Buffer.alloc(5000, 7))
    const snap = await store.snapshot(4096)
    expect(snap.skipped).toEqual([{ path: 'huge.bin', bytes: 5000 }])
    expect(await store.git(['ls-tree', '-r', '--name-only', snap.tree])).toBe('small.txt\n')
    await writeFile(join(workspace, 'huge.bin'), Buffer.alloc(6000, 8))
    await writeFile(join(workspace, 'small.txt'), 'edited\n')
    await store.restore(snap.tree, 4096, ['huge.bin'])
    expect((await readFile(join(workspace, 'huge.bin'))).length).toBe(6000)
    expect(await readFile(join(workspace, 'small.txt'), 'utf8')).toBe('small\n')

    // A file that was small when checkpointed and grew past the limit since is kept in the store's
    // earlier snapshot, and a file small now but skipped then is carried over, not deleted.
    await writeFile(join(workspace, 'huge.bin'), 'small now\n')
    await store.restore(snap.tree, 4096, ['huge.bin'])
    expect(await readFile(join(workspace, 'huge.bin'), 'utf8')).toBe('small now\n')
  })

  test('a store inside the workspace (TACK_HOME in the repository) never records itself', async () => {
    const { workspace } = await box()
    const store = new GitStore({ root: join(workspace, '.tack-home', 'checkpoints'), workspace })
    await writeFile(join(workspace, 'a.txt'), 'a\n')
    const first = await store.snapshot(1 << 20)
    await writeFile(join(workspace, 'a.txt'), 'b\n')
    const second = await store.snapshot(1 << 20)
    expect(await store.git(['ls-tree', '-r', '--name-only', first.tree])).toBe('a.txt\n')
    expect(await store.git(['ls-tree', '-r', '--name-only', second.tree])).toBe('a.txt\n')
  })

  test('pruning keeps the newest trees and drops what only the others held', async () => {
    const { workspace, store } = await box()
    const trees: string[] = []
    for (let i = 0; i < 4; i++) {
      await writeFile(join(workspace, 'f.txt'), `version ${i}\n`)
      const snap = await store.snapshot(1 << 20)
      await store.keep(`00${i}-s-${i}`, snap.tree)
      trees.push(snap.tree)
    }
    await writeFile(join(workspace, 'f.txt'), 'latest\n')
    await store.snapshot(1 << 20)
    expect(await store.prune(2)).toBe(2)
    const refs = (await store.git(['for-each-ref', '--format=%(objectname)', 'refs/tack/']))
      .trim()
      .split('\n')
    expect(refs).toEqual(trees.slice(2))
    await expect(store.git(['cat-file', '-e', trees[0] as string])).rejects.toThrow()
    await expect(store.git(['cat-file', '-e', trees[3] as string])).resolves.toBe('')
  })
})
