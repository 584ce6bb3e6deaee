// The seams added for hook events (docs/decisions/0170-hook-event-seams.md): `agent/tool-batch` after
// one message's calls all have results, `agent/turn-failed` after a turn ends `error`, and the model
// switch pair `agent/model-switch` / `agent/model-switched`. Real loop, real tools pipeline, scripted model.
import { describe, expect, test } from 'vitest'
import { createTestAgent, error, text, toolCalls } from '@tack/agent/testing'
import { defineTool, registerTool } from '@tack/tools'
import type { Context } from 'cordis'
import { type ModelChange, switchAgentModel, type ToolBatchInfo, type TurnFailure } from '../src/index.ts'
import { textOf, user } from './helpers.ts'

function echoTools(ctx: Context): void {
  registerTool(
    ctx,
    defineTool({
      name: 'echo',
      description: 'says its text back, or fails when asked to',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, fail: { type: 'boolean' } },
        required: ['text'],
      } as const,
      execute: async (args) => {
        if (args.fail) throw new Error(`failed: ${args.text}`)
        return `echo ${args.text}`
      },
    }),
  )
}

const plugin = (name: string, content: string) => ({ content, source: { kind: 'plugin' as const, name } })

describe('agent/tool-batch', () => {
  test('fires once per message with every call and its result text, after the calls; its context follows theirs', async () => {
    const batches: ToolBatchInfo[] = []
    const t = await createTestAgent({
      script: [
        toolCalls([
          { name: 'echo', args: { text: 'a' } },
          { name: 'echo', args: { text: 'b', fail: true } },
        ]),
        text('done'),
      ],
      setup: (ctx) => {
        echoTools(ctx)
        ctx.on('agent/tool-batch', async (_agent, info, next) => {
          batches.push(info)
          expect(t.types().filter((x) => x === 'tool/result')).toHaveLength(2)
          const downstream = await next()
          expect(downstream).toEqual({ action: 'continue' })
          return { action: 'continue', additionalContext: [plugin('test', 'batch seen')] }
        })
      },
    })
    expect((await t.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
    expect(batches).toHaveLength(1)
    expect(batches[0].turn).toBe(1)
    expect(batches[0].step).toBe(1)
    expect(batches[0].calls.map((c) => [c.callId, c.name, c.arguments, c.isError])).toEqual([
      ['call_1', 'echo', { text: 'a' }, false],
      ['call_2', 'echo', { text: 'b', fail: true }, true],
    ])
    expect(batches[0].calls[0].output).toBe('echo a')
    expect(batches[0].calls[1].output).toContain('failed: b')
    const events = t.events()
    const ctxAt = events.findIndex((e) => e.type === 'context/message' && textOf(e) === 'batch seen')
    const lastResult = events.findLastIndex((e) => e.type === 'tool/result')
    const stepEnd = events.findIndex((e) => e.type === 'step/end')
    expect(ctxAt).toBeGreaterThan(lastResult)
    expect(ctxAt).toBeLessThan(stepEnd)
    // The model's next request sees it.
    expect(JSON.stringify(t.model.requests[1].messages)).toContain('batch seen')
    await t.dispose()
  })

  test('a step without calls raises nothing', async () => {
    let fired = 0
    const t = await createTestAgent({
      script: [text('just text')],
      setup: (ctx) => {
        ctx.on('agent/tool-batch', (_a, _i, next) => {
          fired++
          return next()
        })
      },
    })
    await t.agent.send(user('go'))
    expect(fired).toBe(0)
    await t.dispose()
  })

  test('stop ends the turn after this step, completed, without another model call', async () => {
    const t = await createTestAgent({
      script: [toolCalls([{ name: 'echo', args: { text: 'a' } }])],
      setup: (ctx) => {
        echoTools(ctx)
        ctx.on('agent/tool-batch', () => ({ action: 'stop', reason: 'enough' }))
      },
    })
    expect((await t.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
    expect(t.model.requests).toHaveLength(1)
    t.model.assertConsumed()
    await t.dispose()
  })

  test('a throwing listener ends the turn PLUGIN_ERROR naming the seam', async () => {
    const t = await createTestAgent({
      script: [toolCalls([{ name: 'echo', args: { text: 'a' } }])],
      setup: (ctx) => {
        echoTools(ctx)
        ctx.on('agent/tool-batch', () => {
          throw new Error('boom')
        })
      },
    })
    const reason = (await t.agent.send(user('go'))).reason
    expect(reason).toMatchObject({ kind: 'error', code: 'PLUGIN_ERROR' })
    expect(JSON.stringify(reason)).toContain('boom')
    await t.dispose()
  })
})

describe('agent/turn-failed', () => {
  test('a model API error is reported with origin model, after turn/end', async () => {
    const failures: TurnFailure[] = []
    const t = await createTestAgent({
      script: [error('overloaded', { code: 'HTTP_529', status: 529 })],
      setup: (ctx) => {
        ctx.on('agent/turn-failed', (_agent, failure) => {
          expect(t.types().at(-1)).toBe('turn/end')
          failures.push(failure)
        })
      },
    })
    await t.agent.send(user('go'))
    expect(failures).toEqual([{ turn: 1, step: 1, code: 'HTTP_529', message: 'overloaded', origin: 'model' }])
    await t.dispose()
  })

  test('a plugin failure is origin loop; a completed turn raises nothing', async () => {
    const failures: TurnFailure[] = []
    let fail = true
    const t = await createTestAgent({
      script: [text('fine')],
      setup: (ctx) => {
        ctx.on('agent/turn-failed', (_agent, failure) => failures.push(failure))
        ctx.on('agent/request', (_a, _i, _config, next) => {
          if (fail) throw new Error('nope')
          return next()
        })
      },
    })
    await t.agent.send(user('go'))
    fail = false
    await t.agent.send(user('again'))
    expect(failures.map((f) => [f.turn, f.code, f.origin])).toEqual([[1, 'PLUGIN_ERROR', 'loop']])
    await t.dispose()
  })
})

describe('agent/model-switch and agent/model-switched', () => {
  test('allow: the switch is logged, then model-switched carries from, to and source', async () => {
    const seen: Array<[string, ModelChange]> = []
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/model-switch', (_agent, change, next) => {
          seen.push(['pre', change])
          return next()
        })
        ctx.on('agent/model-switched', (agent, change) => {
          expect(agent.model).toBe('scripted/other')
          seen.push(['post', change])
        })
      },
    })
    const from = t.agent.model
    expect(await switchAgentModel(t.ctx, t.agent, 'scripted/other', 'command')).toEqual({ action: 'allow' })
    const change = { from, to: 'scripted/other', requested: 'scripted/other', source: 'command' }
    expect(seen).toEqual([
      ['pre', change],
      ['post', change],
    ])
    expect(t.events().filter((e) => e.type === 'agent/model')).toHaveLength(1)
    await t.dispose()
  })

  test('deny keeps the model, logs nothing and raises no model-switched; a throwing listener denies too', async () => {
    let post = 0
    let mode: 'deny' | 'throw' = 'deny'
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/model-switch', () => {
          if (mode === 'throw') throw new Error('broken gate')
          return { action: 'deny', reason: 'not that one' }
        })
        ctx.on('agent/model-switched', () => post++)
      },
    })
    const from = t.agent.model
    expect(await switchAgentModel(t.ctx, t.agent, 'scripted/other', 'command')).toEqual({
      action: 'deny',
      reason: 'not that one',
    })
    mode = 'throw'
    const thrown = await switchAgentModel(t.ctx, t.agent, 'scripted/other', 'command')
    expect(thrown.action).toBe('deny')
    expect(JSON.stringify(thrown)).toContain('broken gate')
    expect(t.agent.model).toBe(from)
    expect(post).toBe(0)
    expect(t.events().some((e) => e.type === 'agent/model')).toBe(false)
    await t.dispose()
  })
})

describe('agents.create source', () => {
  test('a host replacing a cleared session starts the new one with session-start clear (AL-10)', async () => {
    const sources: string[] = []
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/session-start', (_agent, source) => void sources.push(source))
      },
    })
    const next = await t.ctx.agents.create({ cwd: t.agent.cwd, source: 'clear' })
    expect(sources).toEqual(['startup', 'clear'])
    await next.dispose()
    await t.dispose()
  })
})
