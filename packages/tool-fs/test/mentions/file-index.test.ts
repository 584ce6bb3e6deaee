// The paths the `@` completion offers (85-skills-and-commands.md I1, docs/decisions/0280-file-mentions.md):
// in a git repository the files git would see (tracked and untracked, `.gitignore` applied by git), with
// the folders above them; outside one a breadth-first walk that honours `.gitignore` and never enters
// `node_modules`; both bounded. A repository's `core.fsmonitor` (a program git would run) is not run.
import { execFileSync } from 'node:child_process'
import { access, appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileIndex, listPaths } from '../../src/mentions/file-index.ts'
import { tempDir, writeTree } from '../support.ts'

const TREE = {
  '.gitignore': 'dist/\n*.log\n',
  'src/a.ts': 'a',
  'src/deep/b.ts': 'b',
  'dist/out.js': 'built',
  'debug.log': 'noise',
  'node_modules/pkg/index.js': 'dependency',
  'README.md': 'readme',
}

describe('file index', () => {
  it('in a git repository: what git would see, folders added, ignored files left out', async () => {
    const root = await tempDir()
    await writeTree(root, TREE)
    execFileSync('git', ['init', '-q'], { cwd: root })
    // node_modules is not in .gitignore: an untracked one is still left out
    const paths = await listPaths(root, 1000)
    expect(new Set(paths)).toEqual(
      new Set(['.gitignore', 'README.md', 'src/', 'src/deep/', 'src/a.ts', 'src/deep/b.ts']),
    )
  })

  // git 2.39 runs `core.fsmonitor` for `ls-files` (tried by hand): without `-c core.fsmonitor=false` this fails.
  it("does not run the repository's core.fsmonitor program", async () => {
    const root = await tempDir()
    await writeTree(root, { 'a.txt': 'a' })
    execFileSync('git', ['init', '-q'], { cwd: root })
    const marker = join(root, '..', `fsmonitor-ran-${Date.now()}`)
    await appendFile(join(root, '.git', 'config'), `[core]\n\tfsmonitor = "touch ${marker}"\n`)
    expect(await listPaths(root, 1000)).toContain('a.txt')
    await expect(access(marker)).rejects.toThrow()
  })

  it('outside a repository: a walk that honours .gitignore and skips node_modules, shallow files first', async () => {
    const root = await tempDir()
    await writeTree(root, TREE)
    const paths = await listPaths(root, 1000)
    expect(new Set(paths)).toEqual(
      new Set(['.gitignore', 'README.md', 'src/', 'src/deep/', 'src/a.ts', 'src/deep/b.ts']),
    )
    // Bounded: the first three files breadth-first, and the folder above them.
    expect(await listPaths(root, 3)).toEqual(['src/', '.gitignore', 'README.md', 'src/a.ts'])
  })

  it('answers from its cache after the first listing', async () => {
    const root = await tempDir()
    await writeTree(root, { 'a.txt': 'a' })
    const index = new FileIndex(() => 1000)
    expect(await index.paths(root)).toEqual(['a.txt'])
    await writeTree(root, { 'b.txt': 'b' })
    // Fresh enough: the known list, at once; a list older than its refresh time is rebuilt behind it.
    expect(await index.paths(root)).toEqual(['a.txt'])
  })
})
