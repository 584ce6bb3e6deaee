import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { mountApprover } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { resolveInWorkspace } from '../src/index.ts'
import { fsContext, run, runApproved, stubAgent, tempDir, textOf, writeTree } from './support.ts'

/** A workspace and, beside it, an outside folder with a secret; an in-tree symlink points out. */
async function layout() {
  const base = await tempDir('tack-scope-')
  const cwd = join(base, 'ws')
  const outside = join(base, 'outside')
  await writeTree(cwd, { 'inside.txt': 'in\n', 'sub/inner.txt': 'inner\n' })
  await writeTree(outside, { 'secret.txt': 'secret\n' })
  await symlink(outside, join(cwd, 'escape'))
  await symlink(join(outside, 'secret.txt'), join(cwd, 'secret-link.txt'))
  await symlink(join(cwd, 'inside.txt'), join(cwd, 'inner-link.txt'))
  await symlink(join(outside, 'planted.txt'), join(cwd, 'dangling.txt'))
  return { cwd, outside }
}

const OUTSIDE_PATHS = (outside: string) => [
  '../outside/secret.txt',
  join(outside, 'secret.txt'),
  'secret-link.txt',
  'escape/secret.txt',
]

describe('workspace scope', () => {
  it('R6 TL-11 read of ../x, an absolute outside path and in-tree symlinks pointing out fails OUTSIDE_WORKSPACE unapproved', async () => {
    const { cwd, outside } = await layout()
    const ctx = await fsContext()
    for (const file_path of OUTSIDE_PATHS(outside)) {
      const result = await run(ctx, 'read', { file_path }, { cwd })
      expect(result.error?.code, file_path).toBe('OUTSIDE_WORKSPACE')
      expect(textOf(result)).not.toContain('secret\n')
    }
  })

  it('R6 TL-11 write and edit outside fail OUTSIDE_WORKSPACE and touch nothing', async () => {
    const { cwd, outside } = await layout()
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    for (const file_path of [...OUTSIDE_PATHS(outside), 'escape/new.txt', 'dangling.txt', '../new.txt']) {
      const write = await run(ctx, 'write', { file_path, content: 'pwned\n' }, { cwd, agent })
      expect(write.error?.code, file_path).toBe('OUTSIDE_WORKSPACE')
      const edit = await run(
        ctx,
        'edit',
        { file_path, old_string: 'secret', new_string: 'x' },
        { cwd, agent },
      )
      expect(edit.error?.code, file_path).toBe('OUTSIDE_WORKSPACE')
    }
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n')
    await expect(readFile(join(outside, 'planted.txt'))).rejects.toThrow(/ENOENT/)
    await expect(readFile(join(outside, 'new.txt'))).rejects.toThrow(/ENOENT/)
  })

  it('R6 TL-11 glob and grep of an outside folder fail OUTSIDE_WORKSPACE; in-tree search never follows the symlink out', async () => {
    const { cwd } = await layout()
    const ctx = await fsContext()
    for (const path of ['..', '../outside', 'escape']) {
      expect((await run(ctx, 'glob', { pattern: '**', path }, { cwd })).error?.code, path).toBe(
        'OUTSIDE_WORKSPACE',
      )
      expect((await run(ctx, 'grep', { pattern: 'secret', path }, { cwd })).error?.code, path).toBe(
        'OUTSIDE_WORKSPACE',
      )
    }
    const grep = await run(ctx, 'grep', { pattern: 'secret' }, { cwd })
    expect(textOf(grep)).toBe('No matches found.')
  })

  it('R6 TL-11 the same outside paths are allowed when the call was approved (by the user or a rule)', async () => {
    const { cwd, outside } = await layout()
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    for (const file_path of OUTSIDE_PATHS(outside)) {
      const text = await runApproved(ctx, 'read', { file_path }, { cwd, agent, approval: 'user' })
      expect(text, file_path).toBe('1\tsecret')
    }
    await runApproved(
      ctx,
      'write',
      { file_path: '../outside/new.txt', content: 'ok\n' },
      { cwd, agent, approval: 'rule' },
    )
    expect(await readFile(join(outside, 'new.txt'), 'utf8')).toBe('ok\n')
    const edited = await runApproved(
      ctx,
      'edit',
      { file_path: 'secret-link.txt', old_string: 'secret', new_string: 'open', replace_all: false },
      { cwd, agent, approval: 'user' },
    )
    expect(edited).toMatchObject({ meta: { path: join(outside, 'secret.txt') } })
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('open\n')
  })

  it('R6 TL-11 through the pipeline: an asked call the approver allows reaches outside; a refused one does not', async () => {
    const { cwd, outside } = await layout()
    for (const answer of ['allow', 'deny'] as const) {
      const ctx = await fsContext()
      ctx.on('tools/pre-execute', () => ({ action: 'ask', reason: 'outside the workspace' }))
      await mountApprover(ctx, { action: answer, by: 'user' })
      const read = await run(ctx, 'read', { file_path: 'secret-link.txt' }, { cwd })
      const write = await run(
        ctx,
        'write',
        // A new file each time: overwriting the first one unread would fail before the question (0300).
        { file_path: `../outside/${answer}.txt`, content: 'yes\n' },
        { cwd },
      )
      if (answer === 'allow') {
        expect([read.isError, textOf(read)]).toEqual([false, '1\tsecret'])
        expect(write.isError).toBe(false)
        expect(await readFile(join(outside, 'allow.txt'), 'utf8')).toBe('yes\n')
      } else {
        expect([read.error?.code, write.error?.code]).toEqual(['DENIED', 'DENIED'])
      }
    }
  })

  it('R6 a symlink inside pointing inside is fine, and writing through it keeps the link', async () => {
    const { cwd } = await layout()
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    expect(textOf(await run(ctx, 'read', { file_path: 'inner-link.txt' }, { cwd, agent }))).toBe('1\tin')
    const edit = await run(
      ctx,
      'edit',
      { file_path: 'inner-link.txt', old_string: 'in', new_string: 'IN' },
      { cwd, agent },
    )
    expect(edit.meta).toEqual({ path: 'inside.txt', hunks: expect.any(Array) })
    expect(await readFile(join(cwd, 'inside.txt'), 'utf8')).toBe('IN\n')
    expect(await readFile(join(cwd, 'inner-link.txt'), 'utf8')).toBe('IN\n')
  })

  it('R6 paths inside the workspace through .. and absolute forms resolve inside', async () => {
    const { cwd } = await layout()
    const ctx = await fsContext()
    for (const file_path of ['sub/../inside.txt', join(cwd, 'inside.txt'), './inside.txt']) {
      expect(textOf(await run(ctx, 'read', { file_path }, { cwd })), file_path).toBe('1\tin')
    }
  })

  it('R6 the workspace root is the agent cwd: a call cwd below it may reach up to the root, not past it', async () => {
    const { cwd } = await layout()
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    const sub = join(cwd, 'sub')
    expect(textOf(await run(ctx, 'read', { file_path: '../inside.txt' }, { cwd: sub, agent }))).toBe('1\tin')
    const out = await run(ctx, 'read', { file_path: '../../outside/secret.txt' }, { cwd: sub, agent })
    expect(out.error?.code).toBe('OUTSIDE_WORKSPACE')
  })

  it('R6 resolveInWorkspace: a new file takes its nearest existing parent, a dangling link its target', async () => {
    const { cwd, outside } = await layout()
    await mkdir(join(cwd, 'made'), { recursive: true })
    await writeFile(join(cwd, 'made', 'x'), '')
    const fresh = await resolveInWorkspace(cwd, cwd, 'made/new/deeper.txt')
    expect(fresh).toMatchObject({ exists: false, inside: true, real: join(cwd, 'made/new/deeper.txt') })
    const viaLink = await resolveInWorkspace(cwd, cwd, 'escape/new/deeper.txt')
    expect(viaLink).toMatchObject({ exists: false, inside: false, real: join(outside, 'new/deeper.txt') })
    const dangling = await resolveInWorkspace(cwd, cwd, 'dangling.txt')
    expect(dangling).toMatchObject({ exists: false, inside: false, real: join(outside, 'planted.txt') })
  })
})
