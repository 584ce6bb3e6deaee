// An ACP client's model option goes through `agent/model-switch` as `/model` does (docs/decisions/
// 0170-hook-event-seams.md): a denial answers the request with an error carrying the reason and keeps the
// model; an allowed switch is logged once and `agent/model-switched` sees it with source `client`.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { client, methods } from '@agentclientprotocol/sdk'
import type { ModelChange } from '@tack/agent'
import { bootKernel, createScriptedModel, SCRIPTED_MODEL } from '@tack/agent/testing'
import { expect, test } from 'vitest'
import { AcpPlugin } from '../src/index.ts'

test('the model option: a denied switch is an error and keeps the model; an allowed one is logged and announced', async () => {
  const { ctx } = await bootKernel({ plugins: [{ plugin: AcpPlugin }] })
  const model = createScriptedModel([])
  ctx.modelAdapters.register([SCRIPTED_MODEL, 'scripted/other', 'scripted/pricey'], model.adapter)
  const switched: ModelChange[] = []
  ctx.on('agent/model-switch', (_agent, change, next) =>
    change.to === 'scripted/pricey' ? { action: 'deny', reason: 'too pricey' } : next(),
  )
  ctx.on('agent/model-switched', (_agent, change) => void switched.push(change))
  const server = ctx.acp.server({
    version: '0.0.0-test',
    model: SCRIPTED_MODEL,
    models: ['scripted/other', 'scripted/pricey'],
    permissionMode: 'ask',
    toolsMode: 'native',
    warn: () => {},
  })
  const connection = client({ name: 'model-switch' }).connect(server.app())
  const cwd = await mkdtemp(join(tmpdir(), 'tack-acp-model-'))
  try {
    await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
    const set = (value: string) =>
      connection.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'model', value })
    await expect(set('scripted/pricey')).rejects.toThrow(/too pricey/)
    await set('scripted/other')
    expect(switched).toEqual([
      { from: SCRIPTED_MODEL, to: 'scripted/other', requested: 'scripted/other', source: 'client' },
    ])
    await server.disposeAll() // flushes the session's log
    const [session] = await ctx.sessions.list()
    const { events } = await ctx.sessionStore.load(session.id)
    expect(events.filter((e) => e.type === 'agent/model').map((e) => e.data)).toEqual([
      { model: 'scripted/other' },
    ])
  } finally {
    connection.close()
    await server.disposeAll()
  }
})
