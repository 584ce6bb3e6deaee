// The instruction files' discovery and reading (issue 10 item 2) on real files in temp folders.
import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  findInstructionFiles,
  readInstructions,
  repositoryRoot,
  type SkippedFile,
  skippedWarning,
} from '../src/instructions/discover.ts'

async function tree() {
  const root = await mkdtemp(join(tmpdir(), 'tack-instr-'))
  const home = join(root, 'home')
  const ws = join(root, 'ws')
  await mkdir(home, { recursive: true })
  await mkdir(join(ws, 'a', 'b'), { recursive: true })
  return { root, home, ws }
}

describe('project instructions', () => {
  test('issue 10.2: without .git the working folder alone is read (no ancestor above it)', async () => {
    const { root, home, ws } = await tree()
    await writeFile(join(root, 'AGENTS.md'), 'outside')
    await writeFile(join(ws, 'a', 'AGENTS.md'), 'a')
    await writeFile(join(ws, 'a', 'b', 'AGENTS.md'), 'b')
    const cwd = join(ws, 'a', 'b')
    expect(repositoryRoot(cwd)).toBe(cwd)
    expect(findInstructionFiles({ tackHome: home, cwd }).map((f) => f.path)).toEqual([join(cwd, 'AGENTS.md')])
  })

  test('issue 10.2: a CLAUDE.md with the same text as its AGENTS.md is read once; a different one after it', async () => {
    const { home, ws } = await tree()
    await mkdir(join(ws, '.git'))
    await writeFile(join(ws, 'AGENTS.md'), 'same')
    await writeFile(join(ws, 'CLAUDE.md'), 'same')
    await writeFile(join(ws, 'a', 'CLAUDE.md'), 'claude only')
    await writeFile(join(home, 'CLAUDE.md'), 'user claude')
    const files = findInstructionFiles({ tackHome: home, cwd: join(ws, 'a', 'b') })
    expect(files.map(({ path, scope }) => ({ path, scope }))).toEqual([
      { path: join(home, 'CLAUDE.md'), scope: 'user' },
      { path: join(ws, 'AGENTS.md'), scope: 'project' },
      { path: join(ws, 'a', 'CLAUDE.md'), scope: 'project' },
    ])
  })

  test('issue 10.2: the cap cuts on a character boundary, names what was left out, and counts bytes per file', async () => {
    const { root, home, ws } = await tree()
    await writeFile(join(home, 'AGENTS.md'), 'ééé') // 6 bytes
    await writeFile(join(ws, 'AGENTS.md'), 'later')
    const files = [
      { path: join(home, 'AGENTS.md'), scope: 'user' as const, within: await realpath(root) },
      { path: join(ws, 'AGENTS.md'), scope: 'project' as const, within: await realpath(root) },
    ]
    const read = readInstructions(files, 5)
    expect(read.cut).toBe(true)
    expect(read.files).toEqual([
      { path: files[0].path, scope: 'user', bytes: 6, included: 4 },
      { path: files[1].path, scope: 'project', bytes: 5, included: 1 },
    ])
    expect(read.text).toContain(`## ${files[0].path}\n\néé\n`)
    expect(read.text).not.toContain('later')
    expect(read.text).toContain(
      `not included: ${files[0].path} (from byte 4), ${files[1].path} (from byte 1)`,
    )
    expect(readInstructions(files, 4).files[1].included).toBe(0)
    const whole = readInstructions(files, 100)
    expect(whole.cut).toBe(false)
    expect(whole.text.startsWith('<instructions>\n')).toBe(true)
    expect(whole.text).toContain('later')
    expect(readInstructions([], 100)).toEqual({ text: '', files: [], cut: false })
  })

  test('a symlink leading outside the repository is skipped (and reported); one staying inside is read', async () => {
    const { root, home, ws } = await tree()
    await mkdir(join(ws, '.git'))
    const secret = join(root, 'credentials')
    await writeFile(secret, 'aws_secret_access_key = CANARY')
    await symlink(secret, join(ws, 'AGENTS.md'))
    await writeFile(join(ws, 'docs.md'), 'inside the repo')
    await symlink(join(ws, 'docs.md'), join(ws, 'a', 'CLAUDE.md'))
    await symlink('../../../credentials', join(ws, 'a', 'b', 'AGENTS.md')) // relative, through `..`
    await symlink(secret, join(home, 'AGENTS.md'))
    const skipped: SkippedFile[] = []
    const cwd = join(ws, 'a', 'b')
    const files = findInstructionFiles({ tackHome: home, cwd, onSkip: (s) => skipped.push(s) })
    expect(files.map((f) => f.path)).toEqual([join(ws, 'a', 'CLAUDE.md')])
    const real = await realpath(ws)
    expect(skipped.map((s) => s.path)).toEqual([
      join(home, 'AGENTS.md'),
      join(ws, 'AGENTS.md'),
      join(cwd, 'AGENTS.md'),
    ])
    expect(skipped[1]).toEqual({ path: join(ws, 'AGENTS.md'), target: await realpath(secret), within: real })
    expect(skippedWarning(skipped[1] as SkippedFile)).toBe(
      `skipped ${join(ws, 'AGENTS.md')}: it leads to ${await realpath(secret)}, outside ${real}; instruction files are read only from inside the folder they are found in`,
    )
    const read = readInstructions(files, 10_000)
    expect(read.text).toContain('inside the repo')
    expect(read.text).not.toContain('CANARY')
  })

  test('a file swapped for an outside symlink after discovery is not read', async () => {
    const { root, home, ws } = await tree()
    await mkdir(join(ws, '.git'))
    await writeFile(join(root, 'credentials'), 'CANARY')
    await writeFile(join(ws, 'AGENTS.md'), 'fine')
    const files = findInstructionFiles({ tackHome: home, cwd: ws })
    expect(files).toHaveLength(1)
    const { rm } = await import('node:fs/promises')
    await rm(join(ws, 'AGENTS.md'))
    await symlink(join(root, 'credentials'), join(ws, 'AGENTS.md'))
    expect(readInstructions(files, 10_000).text).toBe('')
  })
})
