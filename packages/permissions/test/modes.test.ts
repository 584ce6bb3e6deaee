import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PermissionMode } from '../src/index.ts'
import { type Kernel, kernel, run, stubAgent, workspace } from './support.ts'

type Case = 'readIn' | 'writeIn' | 'editIn' | 'bash' | 'unknown' | 'todo' | 'readOut' | 'writeOut'

const CALLS: Record<Case, (outside: string) => { name: string; args: Record<string, unknown> }> = {
  readIn: () => ({ name: 'read', args: { file_path: 'src/a.ts' } }),
  writeIn: () => ({ name: 'write', args: { file_path: 'src/new.ts', content: 'x\n' } }),
  editIn: () => ({ name: 'edit', args: { file_path: 'src/a.ts', old_string: '1', new_string: '2' } }),
  bash: () => ({ name: 'bash', args: { command: 'ls -la' } }),
  unknown: () => ({ name: 'deploy', args: {} }),
  todo: () => ({ name: 'todo_write', args: { todos: [{ content: 'x', status: 'pending' }] } }),
  readOut: (outside) => ({ name: 'read', args: { file_path: join(outside, 'notes.txt') } }),
  writeOut: () => ({ name: 'write', args: { file_path: 'link/new.txt', content: 'x\n' } }),
}

const allow = { action: 'allow' }
const rule = { action: 'allow', approval: 'rule' }
const ask = (reason: string) => ({ action: 'ask', reason })
const deny = (what: string) => ({ action: 'deny', reason: `Read-only mode does not allow this: ${what}.` })
const OUT = ask('outside the workspace')

/** The decision the plugin hands up the chain, per mode and call (an approver is mounted). */
const TABLE = (cwd: string): Record<PermissionMode, Record<Case, object>> => ({
  ask: {
    readIn: allow,
    writeIn: ask(`write changes ${cwd}/src/new.ts`),
    editIn: ask(`edit changes ${cwd}/src/a.ts`),
    bash: ask('bash runs a shell command: ls -la'),
    unknown: ask('deploy is not known to be read-only'),
    todo: allow,
    readOut: OUT,
    writeOut: OUT,
  },
  'workspace-write': {
    readIn: allow,
    writeIn: allow,
    editIn: allow,
    bash: allow,
    unknown: allow,
    todo: allow,
    readOut: OUT,
    writeOut: OUT,
  },
  'read-only': {
    readIn: allow,
    writeIn: deny(`write changes ${cwd}/src/new.ts`),
    editIn: deny(`edit changes ${cwd}/src/a.ts`),
    bash: deny('bash runs a shell command: ls -la'),
    unknown: deny('deploy is not known to be read-only'),
    todo: allow,
    readOut: OUT,
    writeOut: deny(`write changes ${cwd}/link/new.txt`),
  },
  yolo: {
    readIn: rule,
    writeIn: rule,
    editIn: rule,
    bash: rule,
    unknown: rule,
    todo: rule,
    readOut: rule,
    writeOut: rule,
  },
})

async function decisionOf(k: Kernel, cwd: string, outside: string, which: Case, mode: PermissionMode) {
  const { name, args } = CALLS[which](outside)
  const agent = stubAgent(cwd, { permissionMode: mode })
  // An edit of a file not read yet fails before it is asked (docs/decisions/0300): the agent reads it first.
  if (which === 'editIn') await run(k, 'read', { file_path: 'src/a.ts' }, { cwd, agent })
  const before = k.decisions.length
  const result = await run(k, name, args, { cwd, agent })
  expect(k.decisions.length, `${mode} ${which}: one decision`).toBe(before + 1)
  return { decision: k.decisions.at(-1), result }
}

describe('permission modes', () => {
  for (const mode of ['ask', 'workspace-write', 'read-only', 'yolo'] as const) {
    it(`80-cli §4 TL-36 ${mode}: read, write, edit, bash, unknown tool, todo_write, outside read and write`, async () => {
      const { cwd, outside } = await workspace()
      const k = await kernel({ approver: { action: 'deny', by: 'user' } })
      const table = TABLE(cwd)
      for (const which of Object.keys(CALLS) as Case[]) {
        const { decision, result } = await decisionOf(k, cwd, outside, which, mode)
        expect(decision, `${mode} ${which}`).toEqual(table[mode][which])
        const expected = table[mode][which] as { action: string }
        // A denied or (here, refused) asked call never runs its body.
        if (expected.action !== 'allow') expect(result.error?.code, `${mode} ${which}`).toBe('DENIED')
      }
      const asked = Object.values(table[mode]).filter((d) => (d as { action: string }).action === 'ask')
      expect(k.requests.map((r) => r.reason)).toEqual(asked.map((d) => (d as { reason: string }).reason))
    })
  }

  it('80-cli §4 ask: an approved write and bash run; the approver sees the reason', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'ask' }, approver: { action: 'allow', by: 'user' } })
    const agent = stubAgent(cwd)
    expect(
      (await run(k, 'write', { file_path: 'src/new.ts', content: 'ok\n' }, { cwd, agent })).isError,
    ).toBe(false)
    expect(await readFile(join(cwd, 'src/new.ts'), 'utf8')).toBe('ok\n')
    expect((await run(k, 'bash', { command: 'make' }, { cwd, agent })).isError).toBe(false)
    expect(k.commands).toEqual(['make'])
    expect(k.requests.map((r) => [r.exec.name, r.reason])).toEqual([
      ['write', `write changes ${cwd}/src/new.ts`],
      ['bash', 'bash runs a shell command: make'],
    ])
  })

  it('80-cli §4 workspace-write runs writes, bash and unknown tools without asking', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'workspace-write' }, approver: { action: 'deny', by: 'user' } })
    const agent = stubAgent(cwd)
    await run(k, 'read', { file_path: 'src/a.ts' }, { cwd, agent })
    const edit = await run(
      k,
      'edit',
      { file_path: 'src/a.ts', old_string: '1', new_string: '2' },
      { cwd, agent },
    )
    expect(edit.isError).toBe(false)
    expect(await readFile(join(cwd, 'src/a.ts'), 'utf8')).toBe('const a = 2\n')
    await run(k, 'bash', { command: 'npm test' }, { cwd, agent })
    await run(k, 'deploy', {}, { cwd, agent })
    expect([k.commands, k.deploys, k.requests]).toEqual([['npm test'], [1], []])
  })

  it('R6 TL-11 headless (no approver): outside paths pass to the fs tool, which fails OUTSIDE_WORKSPACE', async () => {
    const { cwd, outside } = await workspace()
    for (const mode of ['ask', 'workspace-write', 'read-only'] as const) {
      const k = await kernel({ config: { mode } })
      for (const file_path of ['../outside/notes.txt', join(outside, 'notes.txt'), 'link/notes.txt']) {
        const result = await run(k, 'read', { file_path }, { cwd })
        expect(k.decisions.at(-1), `${mode} ${file_path}`).toEqual({ action: 'allow' })
        expect(result.error?.code, `${mode} ${file_path}`).toBe('OUTSIDE_WORKSPACE')
      }
      const write = await run(k, 'write', { file_path: 'link/new.txt', content: 'x' }, { cwd })
      expect(write.error?.code, mode).toBe(mode === 'read-only' ? 'DENIED' : 'OUTSIDE_WORKSPACE')
    }
    await expect(readFile(join(outside, 'new.txt'))).rejects.toThrow(/ENOENT/)
  })

  it('80-cli §4 headless ask mode: a write asks, and with no approver the pipeline denies it', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'ask' } })
    const result = await run(k, 'write', { file_path: 'src/new.ts', content: 'x' }, { cwd })
    expect(result.error?.code).toBe('DENIED')
    expect(result.content[0].text).toContain('No approver was available')
    await expect(readFile(join(cwd, 'src/new.ts'))).rejects.toThrow(/ENOENT/)
  })

  it('R6 TL-11 an outside path asked and approved by the user runs (ask, workspace-write; reads in read-only)', async () => {
    const { cwd, outside } = await workspace()
    for (const mode of ['ask', 'workspace-write', 'read-only'] as const) {
      const k = await kernel({ config: { mode }, approver: { action: 'allow', by: 'user' } })
      for (const file_path of ['../outside/notes.txt', join(outside, 'notes.txt'), 'link/notes.txt']) {
        const read = await run(k, 'read', { file_path }, { cwd })
        expect([read.isError, read.content[0].text], `${mode} ${file_path}`).toEqual([
          false,
          '1\toutside notes',
        ])
      }
      const write = await run(k, 'write', { file_path: `link/${mode}.txt`, content: 'ok\n' }, { cwd })
      if (mode === 'read-only') expect(write.error?.code).toBe('DENIED')
      else expect(await readFile(join(outside, `${mode}.txt`), 'utf8')).toBe('ok\n')
      expect(
        k.requests.every((r) => r.reason === 'outside the workspace'),
        mode,
      ).toBe(true)
    }
  })

  it('R6 an outside path asked and refused by the user never runs', async () => {
    const { cwd, outside } = await workspace()
    const k = await kernel({ config: { mode: 'workspace-write' }, approver: { action: 'deny', by: 'user' } })
    const result = await run(k, 'write', { file_path: '../outside/new.txt', content: 'x' }, { cwd })
    expect(result.error?.code).toBe('DENIED')
    expect(k.requests.map((r) => r.reason)).toEqual(['outside the workspace'])
    await expect(readFile(join(outside, 'new.txt'))).rejects.toThrow(/ENOENT/)
  })

  it('80-cli §4 calls without an agent use the Config mode (default ask)', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ approver: { action: 'deny', by: 'user' } })
    await run(k, 'bash', { command: 'ls' }, { cwd })
    expect(k.decisions.at(-1)).toEqual(ask('bash runs a shell command: ls'))
    const ro = await kernel({ config: { mode: 'read-only' } })
    await run(ro, 'bash', { command: 'ls' }, { cwd })
    expect(ro.decisions.at(-1)).toMatchObject({ action: 'deny' })
  })
})
