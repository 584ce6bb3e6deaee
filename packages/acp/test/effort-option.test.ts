// 85-skills-and-commands.md I3 over ACP: the `effort` config option (category `thought_level`) is
// offered with the session's effort as its value; a client's choice is logged as `agent/effort` (as
// `/effort` logs it), the next request carries it, and a session/load restores it.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { client, methods } from '@agentclientprotocol/sdk'
import { bootKernel, createScriptedModel, SCRIPTED_MODEL } from '@tack/agent/testing'
import { expect, test } from 'vitest'
import { AcpPlugin } from '../src/index.ts'

test('the effort option: offered, set by the client, logged, sent with the next request, restored on load', async () => {
  const { ctx } = await bootKernel({ plugins: [{ plugin: AcpPlugin }] })
  const model = createScriptedModel([{ kind: 'text', text: 'thought hard' }])
  ctx.modelAdapters.register([SCRIPTED_MODEL], model.adapter)
  const server = ctx.acp.server({
    version: '0.0.0-test',
    model: SCRIPTED_MODEL,
    effort: 'low',
    permissionMode: 'ask',
    toolsMode: 'native',
    warn: () => {},
  })
  const connection = client({ name: 'effort' }).connect(server.app())
  const cwd = await mkdtemp(join(tmpdir(), 'tack-acp-effort-'))
  try {
    await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })
    const created = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    const effort = created.configOptions?.find((o) => o.id === 'effort')
    expect(effort).toMatchObject({ type: 'select', category: 'thought_level', currentValue: 'low' })
    const { sessionId } = created
    const answer = await connection.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: 'effort',
      value: 'high',
    })
    expect(answer.configOptions.find((o) => o.id === 'effort')).toMatchObject({ currentValue: 'high' })
    await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'think' }],
    })
    expect(model.requests[0].config.reasoningEffort).toBe('high')
    await server.disposeAll()
    const { events } = await ctx.sessionStore.load(sessionId)
    expect(events.filter((e) => (e.type as string) === 'agent/effort').map((e) => e.data)).toEqual([
      { effort: 'high' },
    ])
    const loaded = await connection.agent.request(methods.agent.session.load, {
      sessionId,
      cwd,
      mcpServers: [],
    })
    expect(loaded.configOptions?.find((o) => o.id === 'effort')).toMatchObject({ currentValue: 'high' })
  } finally {
    connection.close()
    await server.disposeAll()
  }
})
