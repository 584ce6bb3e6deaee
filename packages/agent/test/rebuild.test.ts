import { expect, test } from 'vitest'
import { deriveEventMessage, foldRequestHeader, type Message, surfaceOf } from '@tack/session'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import { defineTool, registerTool } from '@tack/tools'
import { plugin, user } from './helpers.ts'

test('SL-18 every request the loop sent equals the projection of the log prefix plus the folded header', async () => {
  const t = await createTestAgent({
    script: [
      toolCalls([{ name: 'note', args: { text: 'a' } }]),
      text('first answer'),
      toolCalls([{ name: 'note', args: { text: 'b' } }]),
      text('second answer'),
    ],
    setup: (ctx) => {
      registerTool(
        ctx,
        defineTool({
          name: 'note',
          description: 'takes a note',
          parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          execute: (args) => `noted ${args.text}`,
        }),
      )
      ctx.on('agent/session-prefix', async (_a, _seed, _s, next) => [
        ...(await next()),
        { role: 'user', content: [{ type: 'text', text: 'prefix rules' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'understood' }] },
      ])
      // a header change between turns: a new system section and a different temperature
      ctx.on('agent/request', async (agent, _info, _config, next) => {
        const base = await next()
        const turns = agent.session.events().filter((e) => e.type === 'turn/start').length
        return turns > 1 ? { ...base, temperature: 0.2 } : base
      })
    },
  })
  await t.agent.send(user('one'))
  t.ctx.systemPrompt.section({ name: 'late', order: 5, text: 'A later section.' })
  t.agent.inject(plugin('ci', 'context between turns'))
  await t.agent.send(user('two'))

  const events = t.events()
  const stepStarts = events.filter((e) => e.type === 'step/start')
  expect(t.model.requests).toHaveLength(stepStarts.length)
  t.model.requests.forEach((request, i) => {
    const boundary = stepStarts[i].seq
    // the header in force: the last header event before the next step (unchanged headers write nothing)
    const nextStep = stepStarts[i + 1]?.seq ?? events.length
    const headerSeq = events
      .filter((e) => e.seq < nextStep && e.type.startsWith('request/header'))
      .at(-1)!.seq
    const header = foldRequestHeader(events, headerSeq + 1)!
    const derived: Message[] = surfaceOf(events.slice(0, boundary)).map((e) => deriveEventMessage(e))
    expect(request.messages).toEqual([...(header.messagePrefix ?? []), ...derived])
    expect(request.system).toEqual(header.system)
    expect(request.tools).toEqual(header.tools)
    expect(request.config).toEqual(header.config)
  })
  expect(t.model.requests[2].config.temperature).toBe(0.2)
  expect(t.model.requests[2].system).toContain('A later section.')
  await t.dispose()
})
