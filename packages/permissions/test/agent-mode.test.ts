import { describe, expect, it } from 'vitest'
import { PermissionsConfig, permissionModeOf, setPermissionMode } from '../src/index.ts'
import { kernel, run, stubAgent, workspace } from './support.ts'

describe('per-agent permission mode', () => {
  it('TL-36 agent.options.permissionMode overrides the Config mode', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'yolo' } })
    const strict = stubAgent(cwd, { permissionMode: 'read-only' })
    const loose = stubAgent(cwd)
    expect((await run(k, 'bash', { command: 'ls' }, { cwd, agent: strict })).error?.code).toBe('DENIED')
    expect((await run(k, 'bash', { command: 'ls' }, { cwd, agent: loose })).isError).toBe(false)
    expect(k.commands).toEqual(['ls'])
  })

  it('TL-36 a resumed session (a new agent on the same log) restores the last switch over its options', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'yolo' } })
    const first = stubAgent(cwd, { permissionMode: 'yolo' })
    setPermissionMode(first, 'workspace-write')
    setPermissionMode(first, 'read-only')
    const resumed = { ...first, options: { permissionMode: 'yolo' } }
    expect(permissionModeOf(resumed, 'ask')).toBe('read-only')
    expect((await run(k, 'bash', { command: 'ls' }, { cwd, agent: resumed })).error?.code).toBe('DENIED')
    expect(permissionModeOf(stubAgent(cwd, { permissionMode: 'yolo' }), 'ask')).toBe('yolo')
  })

  it('TL-36 setPermissionMode takes effect for the next call and is logged as permission/mode', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'workspace-write' } })
    const agent = stubAgent(cwd)
    expect((await run(k, 'bash', { command: 'one' }, { cwd, agent })).isError).toBe(false)
    setPermissionMode(agent, 'read-only')
    expect((await run(k, 'bash', { command: 'two' }, { cwd, agent })).error?.code).toBe('DENIED')
    setPermissionMode(agent, 'yolo')
    expect((await run(k, 'bash', { command: 'three' }, { cwd, agent })).isError).toBe(false)
    expect(k.commands).toEqual(['one', 'three'])
    const modes = agent.session.events().filter((e) => e.type === 'permission/mode')
    expect(modes.map((e) => e.data)).toEqual([{ mode: 'read-only' }, { mode: 'yolo' }])
    expect(permissionModeOf(agent, 'ask')).toBe('yolo')
  })

  it('TL-36 a switch overrides the agent option too, and belongs to that agent object only', async () => {
    const { cwd } = await workspace()
    const agent = stubAgent(cwd, { permissionMode: 'read-only' })
    setPermissionMode(agent, 'ask')
    expect(permissionModeOf(agent, 'yolo')).toBe('ask')
    const resumed = stubAgent(cwd, { permissionMode: 'read-only' })
    expect(permissionModeOf(resumed, 'yolo')).toBe('read-only')
    expect(permissionModeOf(undefined, 'workspace-write')).toBe('workspace-write')
  })

  it('TL-36 an unknown mode is refused by setPermissionMode and nothing is logged', async () => {
    const { cwd } = await workspace()
    const agent = stubAgent(cwd)
    // biome-ignore lint/suspicious/noExplicitAny: deliberately passing a value outside the type
    expect(() => setPermissionMode(agent, 'sudo' as any)).toThrow(/unknown permission mode "sudo"/)
    expect(agent.session.events()).toEqual([])
  })

  it('TL-36 an invalid agent option fails closed: the call ends PLUGIN_ERROR and never runs', async () => {
    const { cwd } = await workspace()
    const k = await kernel({ config: { mode: 'yolo' } })
    const agent = stubAgent(cwd, { permissionMode: 'everything' })
    const result = await run(k, 'bash', { command: 'ls' }, { cwd, agent })
    expect(result.error?.code).toBe('PLUGIN_ERROR')
    expect(result.content[0].text).toContain('permissionMode "everything" is not a permission mode')
    expect(k.commands).toEqual([])
  })
})

describe('the decision and the rest of the chain', () => {
  it('80-cli §4 a downstream deny stands under an allow rule (yolo)', async () => {
    const { cwd } = await workspace()
    const k = await kernel({
      config: { mode: 'yolo' },
      downstream: (ctx) => ctx.on('tools/pre-execute', () => ({ action: 'deny', reason: 'hook says no' })),
    })
    const result = await run(k, 'bash', { command: 'ls' }, { cwd })
    expect(result.error?.code).toBe('DENIED')
    expect(k.decisions.at(-1)).toEqual({ action: 'deny', reason: 'hook says no' })
  })

  it('80-cli §4 an ask keeps a downstream rewrite and context; a downstream approved allow stands', async () => {
    const { cwd } = await workspace()
    const context = [{ content: 'note', source: { kind: 'plugin', name: 'hook' } }] as const
    const k = await kernel({
      config: { mode: 'ask' },
      approver: { action: 'allow', by: 'user' },
      downstream: (ctx) =>
        ctx.on('tools/pre-execute', (exec) =>
          exec.name === 'bash'
            ? { action: 'allow', arguments: { command: 'ls -1' }, additionalContext: context }
            : { action: 'allow', approval: 'rule' },
        ),
    })
    await run(k, 'bash', { command: 'ls' }, { cwd })
    expect(k.decisions.at(-1)).toEqual({
      action: 'ask',
      reason: 'bash runs a shell command: ls',
      arguments: { command: 'ls -1' },
      additionalContext: context,
    })
    expect(k.commands).toEqual(['ls -1'])
    await run(k, 'deploy', {}, { cwd })
    expect(k.decisions.at(-1)).toEqual({ action: 'allow', approval: 'rule' })
    expect(k.requests.map((r) => r.exec.name)).toEqual(['bash'])
  })
})

describe('PermissionsConfig', () => {
  it('80-cli §4 defaults: mode ask, no allow rules, no deny rules', () => {
    expect(PermissionsConfig.parse({})).toEqual({ mode: 'ask', allow: [], deny: [] })
  })

  it('80-cli §4 configured: each field takes a valid value', () => {
    const allow = [
      { tool: 'bash', command: 'git *' },
      { tool: '*', path: 'docs/**' },
    ]
    const deny = [{ tool: 'write', path: '/etc/**' }]
    expect(PermissionsConfig.parse({ mode: 'read-only', allow, deny })).toEqual({
      mode: 'read-only',
      allow,
      deny,
    })
    for (const mode of ['ask', 'workspace-write', 'read-only', 'yolo']) {
      expect(PermissionsConfig.parse({ mode }).mode).toBe(mode)
    }
  })

  it('80-cli §4 rejected: a bad mode, and bad rules in allow and deny, naming the file and key', () => {
    expect(() => PermissionsConfig.parse({ mode: 'sudo' }, 'tack.json')).toThrow(
      /^tack\.json: mode: must be one of 'ask', 'workspace-write', 'read-only', 'yolo' \(got "sudo"\)/,
    )
    for (const key of ['allow', 'deny']) {
      for (const bad of [
        'bash',
        [{ tool: '' }],
        [{ command: 'ls' }],
        [{ tool: 'bash', path: 'a', command: 'b' }],
        [{ tool: 'bash', commands: 'ls' }],
        [{ tool: 'read', path: '' }],
      ]) {
        expect(
          () => PermissionsConfig.parse({ [key]: bad }, 'tack.json'),
          `${key} ${JSON.stringify(bad)}`,
        ).toThrow(new RegExp(`^tack\\.json: ${key}: must be a list of rules`))
      }
    }
  })

  it('80-cli §4 loading the plugin with an invalid config fails', async () => {
    await expect(kernel({ config: { mode: 'never' as 'ask' } })).rejects.toThrow(/mode/)
  })
})
