// 50-acp.md requirement 16, in process: the SDK's client app connected straight to the server's agent
// app (`clientApp.connect(agentApp)`), on a kernel with the scripted model and the fs tools.
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { client, methods, type SessionNotification } from '@agentclientprotocol/sdk'
import type { PromptDecision } from '@tack/agent'
import { bootKernel, createScriptedModel, SCRIPTED_MODEL, settlesWithin } from '@tack/agent/testing'
import { PermissionsPlugin } from '@tack/permissions'
import { FsToolsPlugin } from '@tack/tool-fs'
import { expect, test } from 'vitest'
import { AcpPlugin } from '../src/index.ts'
import { scriptedServer } from './server.ts'

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
  const server = scriptedServer(ctx, warn)
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

test('AL-23: session/cancel while a prompt-submit listener still holds the prompt answers cancelled at once', async () => {
  let entered: () => void = () => {}
  const inAdmission = new Promise<void>((resolve) => {
    entered = resolve
  })
  // A listener that ignores the cancel; released only when the test ends, so disposal can finish.
  let release: (d: PromptDecision) => void = () => {}
  const held = new Promise<PromptDecision>((resolve) => {
    release = resolve
  })
  const { ctx } = await bootKernel({
    plugins: [{ plugin: AcpPlugin }],
    setup: (c) =>
      c.on('agent/prompt-submit', () => {
        entered()
        return held
      }),
  })
  const model = createScriptedModel([{ kind: 'text', text: 'never asked' }])
  ctx.modelAdapters.register([SCRIPTED_MODEL], model.adapter)
  const server = scriptedServer(ctx)
  const connection = client({ name: 'in-process' }).connect(server.app())
  const cwd = await mkdtemp(join(tmpdir(), 'tack-acp-'))
  try {
    await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    const prompted = connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'hello' }],
    })
    await inAdmission
    await connection.agent.notify(methods.agent.session.cancel, { sessionId })
    const done = await settlesWithin(prompted, 2000)
    expect(done.stopReason).toBe('cancelled')
    expect(model.requests).toHaveLength(0)
  } finally {
    release({ action: 'allow' })
    connection.close()
    await server.disposeAll()
  }
})
