// Permissions in the real agent loop: only the model is scripted.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import type { SessionEvent } from '@tack/session'
import { FsToolsPlugin } from '@tack/tool-fs'
import type { ApprovalRequest } from '@tack/tools'
import { mountApprover } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { PermissionsPlugin, setPermissionMode } from '../src/index.ts'
import { workspace } from './support.ts'

const user = (content: string) => ({ content, source: { kind: 'user' } as const })
const results = (events: readonly SessionEvent[]) =>
  events.filter((e) => e.type === 'tool/result').map((e) => e.data as Record<string, unknown>)

describe('permissions in the loop', () => {
  it('TL-36 a mid-session switch is logged as permission/mode and governs the next call', async () => {
    const { cwd } = await workspace()
    const t = await createTestAgent({
      cwd,
      agentOptions: { permissionMode: 'workspace-write' },
      plugins: [
        { plugin: FsToolsPlugin, config: {} },
        { plugin: PermissionsPlugin, config: { mode: 'ask' } },
      ],
      script: [
        toolCalls([{ name: 'write', args: { file_path: 'first.txt', content: '1\n' } }]),
        text('wrote'),
        toolCalls([{ name: 'write', args: { file_path: 'second.txt', content: '2\n' } }]),
        text('refused'),
      ],
    })
    await t.agent.send(user('write one'))
    setPermissionMode(t.agent, 'read-only')
    await t.agent.send(user('write two'))
    expect(await readFile(join(cwd, 'first.txt'), 'utf8')).toBe('1\n')
    await expect(readFile(join(cwd, 'second.txt'))).rejects.toThrow(/ENOENT/)
    const [first, second] = results(t.events())
    expect(first).toMatchObject({ isError: false })
    expect(second).toMatchObject({ isError: true, error: { code: 'DENIED' } })
    const types = t.types()
    const switched = types.indexOf('permission/mode')
    expect(switched).toBeGreaterThan(types.indexOf('turn/end'))
    expect(switched).toBeLessThan(types.lastIndexOf('tool/call'))
    expect(t.events()[switched].data).toEqual({ mode: 'read-only' })
    await t.dispose()
  })

  it('R6 TL-35 an outside path asks the approver with reason "outside the workspace", recorded around the call', async () => {
    const { cwd } = await workspace()
    let requests: ApprovalRequest[] = []
    const t = await createTestAgent({
      cwd,
      plugins: [
        { plugin: FsToolsPlugin, config: {} },
        { plugin: PermissionsPlugin, config: { mode: 'workspace-write' } },
      ],
      setup: async (ctx) => {
        requests = await mountApprover(ctx, { action: 'deny', by: 'user' })
      },
      script: [toolCalls([{ name: 'read', args: { file_path: '../outside/notes.txt' } }]), text('ok')],
    })
    await t.agent.send(user('peek outside'))
    expect(requests.map((r) => r.reason)).toEqual(['outside the workspace'])
    const around = t.types().filter((type) => type.startsWith('approval/') || type.startsWith('tool/'))
    expect(around).toEqual(['tool/call', 'approval/requested', 'approval/resolved', 'tool/result'])
    expect(t.events().find((e) => e.type === 'approval/requested')?.data).toMatchObject({
      reason: 'outside the workspace',
    })
    expect(results(t.events())[0]).toMatchObject({ isError: true, error: { code: 'DENIED' } })
    await t.dispose()
  })

  it('R6 headless workspace-write: an outside read is not asked, and the model sees OUTSIDE_WORKSPACE', async () => {
    const { cwd } = await workspace()
    const t = await createTestAgent({
      cwd,
      plugins: [
        { plugin: FsToolsPlugin, config: {} },
        { plugin: PermissionsPlugin, config: { mode: 'workspace-write' } },
      ],
      script: [toolCalls([{ name: 'read', args: { file_path: 'link/notes.txt' } }]), text('ok')],
    })
    await t.agent.send(user('peek outside'))
    expect(t.types().filter((type) => type.startsWith('approval/'))).toEqual([])
    expect(results(t.events())[0]).toMatchObject({ isError: true, error: { code: 'OUTSIDE_WORKSPACE' } })
    await t.dispose()
  })
})
