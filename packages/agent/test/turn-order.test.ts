import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { AgentConfig } from '@tack/agent'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import { defineTool, registerTool } from '@tack/tools'
import { plugin, shape, user } from './helpers.ts'

const echo = defineTool({
  name: 'echo',
  description: 'echoes its text',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
  execute: (args) => args.text,
})

describe('turn and step order', () => {
  test('AL-6 AL-7 a two-step turn with one tool call whose post-execute adds context logs the exact order', async () => {
    const t = await createTestAgent({
      script: [toolCalls([{ name: 'echo', args: { text: 'hi' } }]), text('done')],
      setup: (ctx) => {
        registerTool(ctx, echo)
        ctx.on('tools/post-execute', async (_exec, _result, next) => {
          const d = await next()
          return { ...d, additionalContext: [plugin('fmt', 'formatted')] }
        })
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome).toEqual({ turn: 1, reason: { kind: 'completed' } })
    expect(shape(t.events())).toEqual([
      'turn/start',
      'user/message',
      'step/start',
      'request/header',
      'assistant/chunk…',
      'assistant/message',
      'tool/call',
      'tool/result',
      'context/message',
      'step/end',
      'step/start',
      'assistant/chunk…',
      'assistant/message',
      'step/end',
      'turn/end',
    ])
    t.model.assertConsumed()
    await t.dispose()
  })

  test('AL-7 maxStepsPerTurn: default 10000, configured value ends the turn with MAX_STEPS, 0 and 1000001 rejected', async () => {
    expect(AgentConfig.parse({}).maxStepsPerTurn).toBe(10000)
    expect(() => AgentConfig.parse({ maxStepsPerTurn: 0 })).toThrow(
      /maxStepsPerTurn: must be an integer 1–1000000 \(got 0\)/,
    )
    expect(() => AgentConfig.parse({ maxStepsPerTurn: 1000001 })).toThrow(/maxStepsPerTurn/)
    const t = await createTestAgent({
      config: { agent: { maxStepsPerTurn: 2 } },
      script: [
        toolCalls([{ name: 'echo', args: { text: 'a' } }]),
        toolCalls([{ name: 'echo', args: { text: 'b' } }]),
      ],
      setup: (ctx) => {
        registerTool(ctx, echo)
      },
    })
    const outcome = await t.agent.send(user('loop'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'MAX_STEPS' })
    expect(t.events().filter((e) => e.type === 'step/start')).toHaveLength(2)
    await t.dispose()
  })

  test('AL-7 a rejected config fails plugin load naming the key', async () => {
    await expect(createTestAgent({ config: { agent: { maxStepsPerTurn: 'many' } } })).rejects.toThrow(
      /maxStepsPerTurn/,
    )
  })

  test('AL-8 no surface event falls between an assistant message and its last result; balanced at every step/end', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom('steer', 'inject', 'context'), { maxLength: 6 }),
        async (callsPerStep, disturbances) => {
          const script = callsPerStep.map((n, i) =>
            n === 0 && i < callsPerStep.length - 1
              ? toolCalls([{ name: 'echo', args: { text: 'x' } }])
              : n === 0
                ? text('end')
                : toolCalls(Array.from({ length: n }, () => ({ name: 'echo', args: { text: 'y' } }))),
          )
          if (callsPerStep.at(-1) !== 0) script.push(text('end'))
          let d = 0
          const t = await createTestAgent({
            script,
            setup: (ctx) => {
              registerTool(
                ctx,
                defineTool({
                  name: 'echo',
                  description: 'disturbs the agent',
                  parameters: { type: 'object', properties: { text: { type: 'string' } } } as const,
                  execute: (_args, call) => {
                    const kind = disturbances[d++]
                    if (kind === 'steer') call.agent?.steer(plugin('p', 'steer'))
                    if (kind === 'inject') call.agent?.inject(plugin('p', 'inject'))
                    return 'ok'
                  },
                }),
              )
              ctx.on('tools/post-execute', async (_e, _r, next) => {
                const res = await next()
                return disturbances[d] === 'context'
                  ? { ...res, additionalContext: [plugin('p', 'ctx')] }
                  : res
              })
            },
          })
          await t.agent.send(user('go'))
          const session = t.agent.session
          const events = t.events()
          let open = 0
          for (const e of events) {
            if (e.type === 'assistant/message') {
              const data = e.data as { content: ReadonlyArray<{ type: string }> }
              open = data.content.filter((b) => b.type === 'tool-call').length
              continue
            }
            if (e.type === 'tool/result') {
              open--
              continue
            }
            if (e.op && open > 0) throw new Error(`${e.type} at seq ${e.seq} splits a call from its result`)
            if (e.type === 'step/end') {
              expect(open).toBe(0)
              const last = session
                .surface()
                .filter((n) => n.seq < e.seq)
                .at(-1)
              if (last) expect(session.toolPairingBalancedAfter(last.seq)).toBe(true)
            }
          }
          await t.dispose()
        },
      ),
      { numRuns: 25 },
    )
  })
})
