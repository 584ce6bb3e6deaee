// 50-acp.md requirement 16, in process: the SDK's client app connected straight to the server's agent
// app (`clientApp.connect(agentApp)`), on a kernel with the scripted model and the fs tools.
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { client, methods, type SessionNotification } from '@agentclientprotocol/sdk'
import { bootKernel, createScriptedModel, SCRIPTED_MODEL } from '@tack/agent/testing'
import { PermissionsPlugin } from '@tack/permissions'
import { FsToolsPlugin } from '@tack/tool-fs'
import { expect, test } from 'vitest'
import { AcpPlugin } from '../src/index.ts'

/** A kernel with the fs tools, ask mode and the ACP plugin, answering with `script`; its ACP server. */
async function askingServer(script: Parameters<typeof createScriptedModel>[0], warn: (line: string) => void) {
  const { ctx } = await bootKernel({
    plugins: [
      { plugin: FsToolsPlugin },
      { plugin: PermissionsPlugin, config: { mode: 'ask' } },
      { plugin: AcpPlugin },
    ],
  })
  ctx.modelAdapters.register([SCRIPTED_MODEL], createScriptedModel(script).adapter)
  const server = ctx.acp.server({
    version: '0.0.0-test',
    model: SCRIPTED_MODEL,
    permissionMode: 'ask',
    toolsMode: 'native',
    warn,
  })
  return { ctx, server }
}

test('50-acp.md requirement 16: in process, a prompt that writes a file asks once and streams its updates', async () => {
  const warnings: string[] = []
  const { server } = await askingServer(
    [
      { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'A\n' } }] },
      { kind: 'text', text: 'Wrote a.txt.' },
    ],
    (line) => warnings.push(line),
  )
  const updates: SessionNotification[] = []
  const asked: unknown[] = []
  const app = client({ name: 'in-process' })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params)
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      asked.push(params)
      return { outcome: { outcome: 'selected', optionId: 'allow-once' } }
    })
  const connection = app.connect(server.app())
  const cwd = await mkdtemp(join(tmpdir(), 'tack-acp-'))
  try {
    const init = await connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    })
    expect(init.agentInfo).toMatchObject({ name: 'tack', version: '0.0.0-test' })
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    const done = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'write a' }],
    })
    expect(done.stopReason).toBe('end_turn')
    expect(asked).toHaveLength(1)
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('A\n')
    const kinds = updates.map((n) => n.update.sessionUpdate)
    expect(kinds).toContain('tool_call')
    const statuses = updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === 'tool_call_update')
      .map((u) => (u as { status?: string }).status)
    expect(statuses).toEqual(['in_progress', 'completed'])
    expect(warnings).toEqual([])
  } finally {
    connection.close()
    await server.disposeAll()
  }
})

// A call an "Always allow" answer settles asks no one, so no `tools/permission-request` is raised for it
// (docs/decisions/0185-remembered-answers-before-permission-request.md): hooks on that seam (Claude Code's
// PermissionRequest) fire only where the client is asked.
test('50-acp.md requirement 9: a call an always-allow rule answers raises no permission request', async () => {
  const { ctx, server } = await askingServer(
    [
      { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'A\n' } }] },
      { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'b.txt', content: 'B\n' } }] },
      { kind: 'text', text: 'Wrote both.' },
    ],
    () => {},
  )
  const seam: string[] = []
  ctx.on('tools/permission-request', (exec, _ask, next) => {
    seam.push((exec.arguments as { file_path: string }).file_path)
    return next()
  })
  const asked: unknown[] = []
  const app = client({ name: 'in-process' }).onRequest(
    methods.client.session.requestPermission,
    ({ params }) => {
      asked.push(params)
      return { outcome: { outcome: 'selected', optionId: 'allow-always' } }
    },
  )
  const connection = app.connect(server.app())
  const cwd = await mkdtemp(join(tmpdir(), 'tack-acp-'))
  try {
    await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    const done = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'write a and b' }],
    })
    expect(done.stopReason).toBe('end_turn')
    expect(await readFile(join(cwd, 'b.txt'), 'utf8')).toBe('B\n')
    expect(asked).toHaveLength(1)
    expect(seam).toEqual(['a.txt'])
  } finally {
    connection.close()
    await server.disposeAll()
  }
})
