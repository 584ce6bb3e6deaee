import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { kernel, run, stubAgent, workspace } from './support.ts'

const RULE = { action: 'allow', approval: 'rule' }

describe('permission rules', () => {
  it('80-cli §4 an allow rule answers allow with approval rule and asks nobody', async () => {
    const { cwd } = await workspace()
    const k = await kernel({
      config: { mode: 'ask', allow: [{ tool: 'bash', command: 'git status' }] },
      approver: { action: 'deny', by: 'user' },
    })
    const result = await run(k, 'bash', { command: 'git status --short' }, { cwd })
    expect(k.decisions.at(-1)).toEqual(RULE)
    expect(result.isError).toBe(false)
    expect(k.requests).toEqual([])
  })

  it('80-cli §4 a command allow rule matches only a simple command on a word boundary', async () => {
    const { cwd } = await workspace()
    const k = await kernel({
      config: {
        mode: 'ask',
        allow: [
          { tool: 'bash', command: 'git status' },
          { tool: 'bash', command: 'npm run *' },
        ],
      },
      approver: { action: 'deny', by: 'user' },
    })
    for (const command of ['git status', 'npm run test', 'npm run lint -- --fix']) {
      await run(k, 'bash', { command }, { cwd })
      expect(k.decisions.at(-1), command).toEqual(RULE)
    }
    for (const command of [
      'git statusx',
      'git status; rm -rf ~',
      'git status && curl x | sh',
      'git status > /etc/passwd',
      'npm run $(evil)',
      'npm run `evil`',
      'npm install',
    ]) {
      await run(k, 'bash', { command }, { cwd })
      expect(k.decisions.at(-1), command).toMatchObject({ action: 'ask' })
    }
  })

  it('80-cli §4 a deny rule denies in every mode, yolo included, also inside compound commands', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'yolo', deny: [{ tool: 'bash', command: 'rm *' }] } })
    for (const command of ['rm -rf build', 'ls && rm -rf /', 'echo $(rm x)', 'true; rm y']) {
      const result = await run(k, 'bash', { command }, { cwd })
      expect(result.error?.code, command).toBe('DENIED')
      expect(result.content[0].text, command).toBe(
        'The call to "bash" is denied by the rule {"tool":"bash","command":"rm *"}.',
      )
    }
    await run(k, 'bash', { command: 'ls -la' }, { cwd })
    expect(k.commands).toEqual(['ls -la'])
  })

  it('80-cli §4 deny wins over allow', async () => {
    const { cwd } = await workspace()
    const k = await kernel({
      config: {
        mode: 'read-only',
        allow: [{ tool: '*' }],
        deny: [{ tool: 'write', path: 'secrets/**' }],
      },
    })
    const denied = await run(k, 'write', { file_path: 'secrets/key.txt', content: 'x' }, { cwd })
    expect(denied.error?.code).toBe('DENIED')
    expect(k.decisions.at(-1)).toEqual({
      action: 'deny',
      reason: 'The call to "write" is denied by the rule {"tool":"write","path":"secrets/**"}.',
    })
    const allowed = await run(k, 'write', { file_path: 'src/new.ts', content: 'x' }, { cwd })
    expect(allowed.isError).toBe(false)
    expect(k.decisions.at(-1)).toEqual(RULE)
  })

  it('80-cli §4 a tool-only allow rule lets an unknown tool run even in read-only mode', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'read-only', allow: [{ tool: 'deploy' }] } })
    expect((await run(k, 'deploy', {}, { cwd })).isError).toBe(false)
    expect(k.deploys).toEqual([1])
  })

  it('R6 an absolute path allow rule approves an outside read; a relative rule never matches through a symlink out', async () => {
    const { cwd, outside } = await workspace()
    const k = await kernel({
      config: {
        mode: 'workspace-write',
        allow: [
          { tool: 'read', path: `${outside}/**` },
          { tool: 'write', path: 'link/**' },
        ],
      },
      approver: { action: 'deny', by: 'user' },
    })
    await run(k, 'read', { file_path: join(outside, 'notes.txt') }, { cwd })
    expect(k.decisions.at(-1)).toEqual(RULE)
    await run(k, 'read', { file_path: 'link/notes.txt' }, { cwd })
    expect(k.decisions.at(-1), 'the real path matches the absolute rule').toEqual(RULE)
    const smuggled = await run(k, 'write', { file_path: 'link/evil.txt', content: 'x' }, { cwd })
    expect(k.decisions.at(-1)).toEqual({ action: 'ask', reason: 'outside the workspace' })
    expect(smuggled.error?.code).toBe('DENIED')
  })

  it('R6 a path deny rule matches the real path (a symlink to a denied file) and the lexical one', async () => {
    const { cwd, outside } = await workspace()
    const k = await kernel({
      config: {
        mode: 'yolo',
        deny: [
          { tool: 'read', path: `${outside}/**` },
          { tool: 'edit', path: 'src-link/**' },
        ],
      },
    })
    expect((await run(k, 'read', { file_path: 'link/notes.txt' }, { cwd })).error?.code).toBe('DENIED')
    const agent = stubAgent(cwd)
    await run(k, 'read', { file_path: 'src/a.ts' }, { cwd, agent })
    const viaLink = await run(
      k,
      'edit',
      { file_path: 'src-link/a.ts', old_string: '1', new_string: '2' },
      { cwd, agent },
    )
    expect(viaLink.error?.code).toBe('DENIED')
  })

  it('80-cli §4 a rule with a path never matches a call without paths, nor a command rule a call without a command', async () => {
    const { cwd } = await workspace()
    const k = await kernel({
      config: {
        mode: 'ask',
        allow: [
          { tool: '*', path: '**' },
          { tool: '*', command: '*' },
        ],
      },
      approver: { action: 'deny', by: 'user' },
    })
    await run(k, 'deploy', {}, { cwd })
    expect(k.decisions.at(-1)).toEqual({ action: 'ask', reason: 'deploy is not known to be read-only' })
    await run(k, 'write', { file_path: 'src/x.ts', content: '' }, { cwd })
    expect(k.decisions.at(-1)).toEqual(RULE)
  })
})
