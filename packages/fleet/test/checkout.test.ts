// The worker reads a job's diff with git outside the sandbox, in a checkout that another job's sandboxed
// commands could write (the scratch folder is in a temp folder by default): what they plant in the
// checkout's `.git` must not run (docs/decisions/0375-fleet-probe.md).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { checkoutJob } from '../src/checkout.ts'
import { makeRepo } from './fixtures.ts'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function setup() {
  const repo = makeRepo()
  const scratch = mkdtempSync(join(tmpdir(), 'tack-fleet-scratch-'))
  dirs.push(repo, scratch)
  return { repo, scratch, marker: join(scratch, 'ran') }
}

test('a core.fsmonitor or a filter planted in the checkout .git/config does not run when the diff is read', async () => {
  const { repo, scratch, marker } = setup()
  const ws = await checkoutJob({ task: 't', repo, labels: {} }, scratch, 'job-1')
  writeFileSync(join(ws.dir, 'README.md'), 'changed\n')
  writeFileSync(join(ws.dir, '.gitattributes'), '* filter=evil\n')
  await appendFile(
    join(ws.dir, '.git', 'config'),
    `[core]\n\tfsmonitor = "touch ${marker}; false"\n[filter "evil"]\n\tclean = "touch ${marker}; cat"\n[diff]\n\texternal = "touch ${marker}"\n`,
  )
  writeFileSync(join(ws.dir, '.git', 'commondir'), `${scratch}\n`)
  const diff = await ws.diff()
  expect(existsSync(marker)).toBe(false)
  expect(diff).toContain('+changed')
  expect(diff).toContain('.gitattributes')
  await ws.remove()
})

test('a .git replaced by a link is refused, not followed', async () => {
  const { repo, scratch } = setup()
  const ws = await checkoutJob({ task: 't', repo, labels: {} }, scratch, 'job-2')
  rmSync(join(ws.dir, '.git'), { recursive: true, force: true })
  symlinkSync(join(repo, '.git'), join(ws.dir, '.git'))
  await expect(ws.diff()).rejects.toThrow(/no longer the clone's git folder/)
  await ws.remove()
})

test('a ref that is no branch, tag or commit is named as such; a branch, a tag and a commit check out', async () => {
  const { repo, scratch } = setup()
  await expect(checkoutJob({ task: 't', repo, ref: 'nope', labels: {} }, scratch, 'job-3')).rejects.toThrow(
    `no branch, tag or commit nope in ${repo}`,
  )
  const branch = await checkoutJob({ task: 't', repo, ref: 'other', labels: {} }, scratch, 'job-4')
  expect(existsSync(join(branch.dir, 'other.txt'))).toBe(true)
  const commit = await checkoutJob({ task: 't', repo, ref: branch.base, labels: {} }, scratch, 'job-5')
  expect(commit.base).toBe(branch.base)
  await branch.remove()
  await commit.remove()
})

test('a repository or ref from a job row that reads as an option stays a name, and runs nothing', async () => {
  const { repo, scratch, marker } = setup()
  await expect(
    checkoutJob({ task: 't', repo: `--upload-pack=touch ${marker}`, labels: {} }, scratch, 'job-6'),
  ).rejects.toThrow(/cannot clone --upload-pack=/)
  await expect(
    checkoutJob({ task: 't', repo, ref: '--orphan=x', labels: {} }, scratch, 'job-7'),
  ).rejects.toThrow('no branch, tag or commit --orphan=x')
  expect(existsSync(marker)).toBe(false)
})

test('a repository the session made inside the checkout enters the diff as files, with or without a commit', async () => {
  const { repo, scratch } = setup()
  const ws = await checkoutJob({ task: 't', repo, labels: {} }, scratch, 'job-8')
  const sh = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd })
  mkdirSync(join(ws.dir, 'empty', 'inner'), { recursive: true })
  sh(join(ws.dir, 'empty'), 'init', '-q')
  writeFileSync(join(ws.dir, 'empty', 'a.txt'), 'a\n')
  sh(join(ws.dir, 'empty', 'inner'), 'init', '-q')
  writeFileSync(join(ws.dir, 'empty', 'inner', 'b.txt'), 'b\n')
  mkdirSync(join(ws.dir, 'made'))
  sh(join(ws.dir, 'made'), 'init', '-q')
  writeFileSync(join(ws.dir, 'made', 'c.txt'), 'c\n')
  writeFileSync(join(ws.dir, 'made', '.gitignore'), 'skip.txt\n')
  writeFileSync(join(ws.dir, 'made', 'skip.txt'), 'skipped\n')
  sh(join(ws.dir, 'made'), 'add', '.')
  sh(join(ws.dir, 'made'), 'commit', '-qm', 'c')
  const diff = await ws.diff()
  for (const file of ['empty/a.txt', 'empty/inner/b.txt', 'made/c.txt', 'made/.gitignore'])
    expect(diff).toContain(`+++ b/${file}`)
  expect(diff).not.toContain('+++ b/made/skip.txt')
  expect(diff).not.toContain('Subproject commit')
  await ws.remove()
})
