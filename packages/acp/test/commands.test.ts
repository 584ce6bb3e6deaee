// 50-acp.md requirement 13, in process: ACP offers the registry's commands for the `acp` surface, runs a
// plugin's command instead of a model turn, re-sends the list when a plugin's command comes or goes, and
// sends an unknown `/x` to the model.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { client, methods, type SessionNotification } from '@agentclientprotocol/sdk'
import { bootKernel, createScriptedModel, SCRIPTED_MODEL } from '@tack/agent/testing'
import { CommandsPlugin } from '@tack/commands'
import { expect, test } from 'vitest'
import { AcpPlugin } from '../src/index.ts'
import { scriptedServer } from './server.ts'

test('requirement 13: the registry is the list; a plugin command runs; changes are announced', async () => {
  const { ctx } = await bootKernel({ plugins: [{ plugin: CommandsPlugin }, { plugin: AcpPlugin }] })
  const model = createScriptedModel([{ kind: 'text', text: 'the model saw it' }])
  ctx.modelAdapters.register([SCRIPTED_MODEL], model.adapter)
  ctx.commands.register({
    name: 'greet',
    description: 'Greets',
    args: 'name',
    run: ({ args }) => ({ kind: 'text', text: `hello ${args}` }),
  })
  ctx.commands.register({
    name: 'tui-only',
    description: 'Only in the TUI',
    surfaces: ['tui'],
    run: () => ({ kind: 'clear' }),
  })
  const server = scriptedServer(ctx)
  const updates: SessionNotification[] = []
  const app = client({ name: 'in-process' }).onNotification(methods.client.session.update, ({ params }) => {
    updates.push(params)
  })
  const connection = app.connect(server.app())
  const cwd = await mkdtemp(join(tmpdir(), 'tack-acp-'))
  const lists = () =>
    updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === 'available_commands_update')
      .map((u) => (u as { availableCommands: Array<{ name: string }> }).availableCommands.map((c) => c.name))
  const said = () =>
    updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u as { content: { text: string } }).content.text)
      .join('')
  try {
    await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    await until(() => lists().length >= 1)
    expect(lists()).toEqual([['greet']])
    const greeted = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: '/greet Ada' }],
    })
    expect(greeted.stopReason).toBe('end_turn')
    expect(said()).toBe('hello Ada')
    expect(model.requests).toHaveLength(0)

    const undo = ctx.commands.register({
      name: 'wave',
      description: 'Waves',
      run: () => ({ kind: 'text', text: 'o/' }),
    })
    undo()
    await until(() => lists().length >= 3)
    expect(lists()).toEqual([['greet'], ['greet', 'wave'], ['greet']])

    await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: '/tui-only now' }],
    })
    expect(model.requests).toHaveLength(1)
    expect(JSON.stringify(model.requests[0].messages)).toContain('/tui-only now')
  } finally {
    connection.close()
    await server.disposeAll()
  }
})

/** Waits (up to 5 s) until `done()` holds: notifications arrive asynchronously. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10))
}
