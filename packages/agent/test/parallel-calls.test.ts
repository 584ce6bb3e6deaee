// Issue 12 item 3 (docs/decisions/0063-parallel-tool-calls.md): read-only calls of one message run
// side by side, bounded by `maxParallelTools`; anything else is a barrier; the log keeps the model's
// order. The tools are real tools through the real pipeline; only their work is a timer.
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { AgentConfig } from '../src/plugin.ts'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import { defineTool, registerTool, type ToolAccess } from '@tack/tools'
import type { Context } from 'cordis'
import type { SessionEvent } from '@tack/session'
import { user, waitForEvent } from './helpers.ts'

/** What the tools saw: when each call ran, and how many ran at once at most. */
function tracker() {
  const spans: Array<{ id: string; start: number; end: number }> = []
  let inFlight = 0
  let peak = 0
  const tool = (name: string, access: ToolAccess) =>
    defineTool({
      name,
      description: `waits ms milliseconds (${access})`,
      access,
      parameters: {
        type: 'object',
        properties: { id: { type: 'string' }, ms: { type: 'integer' } },
        required: ['id', 'ms'],
      } as const,
      execute: async (args, call) => {
        const span = { id: args.id, start: performance.now(), end: 0 }
        inFlight++
        peak = Math.max(peak, inFlight)
        try {
          await sleep(args.ms, undefined, { signal: call.signal }).catch(() => {})
          return call.signal.aborted ? `${args.id} stopped early` : `${args.id} done`
        } finally {
          inFlight--
          span.end = performance.now()
          spans.push(span)
        }
      },
    })
  return {
    spans,
    peak: () => peak,
    span: (id: string) => spans.find((s) => s.id === id) as { start: number; end: number },
    register(ctx: Context) {
      registerTool(ctx, tool('slow_read', 'read'))
      registerTool(ctx, tool('slow_fetch', 'network'))
      registerTool(ctx, tool('slow_write', 'write'))
      registerTool(ctx, tool('slow_session', 'session'))
    },
  }
}

const reads = (ms: readonly number[], name = 'slow_read') =>
  ms.map((m, i) => ({ name, args: { id: `r${i + 1}`, ms: m } }))

/** An agent with the tracker's tools whose model asks for reads of these delays in one message, then answers. */
const readingAgent = (
  tools: ReturnType<typeof tracker>,
  delays: readonly number[],
  agent: Record<string, unknown> = {},
  setup: (ctx: Context) => unknown = () => {},
) =>
  createTestAgent({
    config: { agent },
    script: [toolCalls(reads(delays)), text('done')],
    setup: async (ctx) => {
      tools.register(ctx)
      await setup(ctx)
    },
  })

const idsOf = (events: readonly SessionEvent[], type: string) =>
  events.filter((e) => e.type === type).map((e) => (e.data as { callId: string }).callId)

const resultText = (e: SessionEvent) =>
  ((e.data as { content: Array<{ text?: string }> }).content[0]?.text ?? '') as string

describe('parallel tool calls', () => {
  test('AL-26 five delayed reads take about the slowest one, not the sum; the log keeps the model order', async () => {
    // The first call is the slowest, so results finish out of order and must wait to be logged.
    const delays = [600, 300, 450, 350, 250]
    const tools = tracker()
    const t = await readingAgent(tools, delays)
    const outcome = await t.agent.send(user('read five files'))
    expect(outcome.reason).toEqual({ kind: 'completed' })

    const started = Math.min(...tools.spans.map((s) => s.start))
    const ended = Math.max(...tools.spans.map((s) => s.end))
    const sum = delays.reduce((a, b) => a + b, 0)
    expect(tools.peak()).toBe(5)
    expect(ended - started).toBeGreaterThanOrEqual(Math.max(...delays) - 5)
    expect(ended - started).toBeLessThan(sum * 0.7)

    const model = ['call_1', 'call_2', 'call_3', 'call_4', 'call_5']
    expect(idsOf(t.events(), 'tool/call')).toEqual(model)
    expect(idsOf(t.events(), 'tool/result')).toEqual(model)
    // The surface the next request carried pairs each result with its call, in order.
    const next = t.model.requests[1].messages.filter((m) => m.role === 'tool')
    expect(next.map((m) => (m.role === 'tool' ? m.callId : ''))).toEqual(model)
    await t.dispose()
  })

  test('AL-26 maxParallelTools 1 runs the same reads one after another', async () => {
    const delays = [120, 80, 100]
    const tools = tracker()
    const t = await readingAgent(tools, delays, { maxParallelTools: 1 })
    await t.agent.send(user('go'))
    expect(tools.peak()).toBe(1)
    expect(tools.span('r2').start).toBeGreaterThanOrEqual(tools.span('r1').end)
    expect(tools.span('r3').start).toBeGreaterThanOrEqual(tools.span('r2').end)
    await t.dispose()
  })

  test('AL-26 the bound holds: five reads with maxParallelTools 2 never run more than two at once', async () => {
    const tools = tracker()
    const t = await readingAgent(tools, [200, 40, 60, 80, 30], { maxParallelTools: 2 })
    await t.agent.send(user('go'))
    expect(tools.peak()).toBe(2)
    const model = ['call_1', 'call_2', 'call_3', 'call_4', 'call_5']
    expect(idsOf(t.events(), 'tool/call')).toEqual(model)
    expect(idsOf(t.events(), 'tool/result')).toEqual(model)
    // A free slot is filled at once: r3 starts when r2 ends, not when the slow r1 does.
    expect(tools.span('r3').start).toBeLessThan(tools.span('r1').end)
    await t.dispose()
  })

  test('AL-26 a write, and any tool not declared read or network, is a barrier that runs alone', async () => {
    const tools = tracker()
    const t = await createTestAgent({
      script: [
        toolCalls([
          { name: 'slow_read', args: { id: 'a', ms: 150 } },
          { name: 'slow_fetch', args: { id: 'b', ms: 100 } },
          { name: 'slow_write', args: { id: 'w', ms: 60 } },
          { name: 'slow_read', args: { id: 'c', ms: 80 } },
          { name: 'slow_session', args: { id: 's', ms: 40 } },
          { name: 'slow_read', args: { id: 'd', ms: 80 } },
          { name: 'slow_read', args: { id: 'e', ms: 80 } },
        ]),
        text('done'),
      ],
      setup: (ctx) => tools.register(ctx),
    })
    await t.agent.send(user('go'))
    const s = tools.span
    // read and network run together …
    expect(s('b').start).toBeLessThan(s('a').end)
    // … the write waits for both and runs alone; what follows waits for it.
    expect(s('w').start).toBeGreaterThanOrEqual(Math.max(s('a').end, s('b').end))
    expect(s('c').start).toBeGreaterThanOrEqual(s('w').end)
    // `session` access is not read-only either.
    expect(s('s').start).toBeGreaterThanOrEqual(s('c').end)
    expect(s('d').start).toBeGreaterThanOrEqual(s('s').end)
    expect(s('e').start).toBeLessThan(s('d').end)
    const model = ['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6', 'call_7']
    expect(idsOf(t.events(), 'tool/result')).toEqual(model)
    await t.dispose()
  })

  test('AL-26 every seam sees each call; post-execute context lands after the results in the model order', async () => {
    const tools = tracker()
    const pre: string[] = []
    const post: string[] = []
    const t = await readingAgent(tools, [150, 20, 80], {}, (ctx) => {
      ctx.on('tools/pre-execute', (exec, next) => {
        pre.push(exec.callId)
        return next()
      })
      ctx.on('tools/post-execute', (exec, _result, _next) => {
        post.push(exec.callId)
        return {
          action: 'accept',
          additionalContext: [{ content: `seen ${exec.callId}`, source: { kind: 'plugin', name: 'spy' } }],
        }
      })
    })
    await t.agent.send(user('go'))
    expect([...pre].sort()).toEqual(['call_1', 'call_2', 'call_3'])
    expect([...post].sort()).toEqual(['call_1', 'call_2', 'call_3'])
    // The slow first call finished last, yet its context comes first.
    expect(post[post.length - 1]).toBe('call_1')
    const types = t.events().map((e) => e.type)
    const lastResult = types.lastIndexOf('tool/result')
    const contexts = t.events().filter((e) => e.type === 'context/message')
    expect(contexts.map((e) => JSON.stringify(e.data))).toEqual([
      expect.stringContaining('seen call_1'),
      expect.stringContaining('seen call_2'),
      expect.stringContaining('seen call_3'),
    ])
    expect(types.indexOf('context/message')).toBeGreaterThan(lastResult)
    await t.dispose()
  })

  test('AL-26 cancel stops every call in flight; calls not started get ABORTED; the surface stays balanced', async () => {
    const tools = tracker()
    const t = await readingAgent(tools, [60000, 60000, 60000, 60000], { maxParallelTools: 3 })
    const sent = t.agent.send(user('go'))
    await waitForEvent(
      t.agent.session,
      (e) => e.type === 'tool/call' && (e.data as { callId: string }).callId === 'call_3',
    )
    while (tools.peak() < 3) await sleep(5)
    const cancelledAt = performance.now()
    t.agent.cancel()
    expect((await sent).reason).toEqual({ kind: 'aborted' })
    expect(performance.now() - cancelledAt).toBeLessThan(5000)
    expect(idsOf(t.events(), 'tool/call')).toEqual(['call_1', 'call_2', 'call_3'])
    expect(idsOf(t.events(), 'tool/result')).toEqual(['call_1', 'call_2', 'call_3', 'call_4'])
    const results = t.events().filter((e) => e.type === 'tool/result')
    expect(results.slice(0, 3).map(resultText)).toEqual([
      'r1 stopped early',
      'r2 stopped early',
      'r3 stopped early',
    ])
    expect((results[3].data as { error?: { code: string } }).error?.code).toBe('ABORTED')
    expect(t.agent.session.deriveMessages().filter((m) => m.role === 'tool')).toHaveLength(4)
    await t.dispose()
  })

  test('AL-26 parallel calls that ask are put to the approver one question at a time, in the order they asked', async () => {
    const tools = tracker()
    let open = 0
    let peakQuestions = 0
    const asked: string[] = []
    const t = await readingAgent(tools, [30, 30, 30], {}, async (ctx) => {
      ctx.on('tools/pre-execute', () => ({ action: 'ask', reason: 'test' }))
      await ctx.plugin({
        name: 'approver',
        apply: (inner: Context) =>
          void inner.provide('approval', {
            request: async (req: { exec: { callId: string } }) => {
              asked.push(req.exec.callId)
              peakQuestions = Math.max(peakQuestions, ++open)
              await sleep(40)
              open--
              return { action: 'allow', by: 'user' }
            },
          }),
      })
    })
    expect((await t.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
    expect(asked).toEqual(['call_1', 'call_2', 'call_3'])
    expect(peakQuestions).toBe(1)
    expect(
      t
        .events()
        .filter((e) => e.type === 'tool/result')
        .map(resultText),
    ).toEqual(['r1 done', 'r2 done', 'r3 done'])
    await t.dispose()
  })

  test("AL-26 a question abandoned by cancel does not hold up the next turn's question", async () => {
    const asked: string[] = []
    const t = await createTestAgent({
      script: [toolCalls(reads([10, 10])), toolCalls(reads([10])), text('done')],
      setup: async (ctx) => {
        tracker().register(ctx)
        ctx.on('tools/pre-execute', () => ({ action: 'ask' }))
        await ctx.plugin({
          name: 'approver',
          apply: (inner: Context) =>
            void inner.provide('approval', {
              // The first question is never answered, whatever happens to its call.
              request: (req: { exec: { callId: string } }) => {
                asked.push(req.exec.callId)
                return asked.length === 1
                  ? new Promise(() => {})
                  : Promise.resolve({ action: 'allow', by: 'user' })
              },
            }),
        })
      },
    })
    const first = t.agent.send(user('go'))
    await waitForEvent(t.agent.session, (e) => e.type === 'approval/requested')
    while (asked.length === 0) await sleep(5)
    t.agent.cancel()
    expect((await first).reason).toEqual({ kind: 'aborted' })
    expect(asked).toEqual(['call_1'])
    expect((await t.agent.send(user('again'))).reason).toEqual({ kind: 'completed' })
    expect(asked).toEqual(['call_1', 'call_3'])
    await t.dispose()
  })

  test('AL-26 a failed durability point starts no more calls; the calls running are awaited and logged first', async () => {
    const tools = tracker()
    const t = await readingAgent(tools, [150, 60, 10, 10], { maxParallelTools: 2 }, (ctx) => {
      // The store fails (a full disk) from the batch that would make call_3 durable on.
      ctx.on('session/flush', async (_session, events) => {
        if (events.some((e) => e.type === 'tool/call' && (e.data as { callId: string }).callId === 'call_3'))
          throw new Error('disk full')
      })
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'PERSIST_FAILED' })
    // call_3 was logged but never ran; the slow call_1 still ran to its end and was logged in order.
    expect(tools.spans.map((x) => x.id).sort()).toEqual(['r1', 'r2'])
    expect(idsOf(t.events(), 'tool/result')).toEqual(['call_1', 'call_2', 'call_3', 'call_4'])
    const results = t.events().filter((e) => e.type === 'tool/result')
    expect(results.slice(0, 2).map(resultText)).toEqual(['r1 done', 'r2 done'])
    expect(results.slice(2).map((e) => (e.data as { error?: { code: string } }).error?.code)).toEqual([
      'PERSIST_FAILED',
      'PERSIST_FAILED',
    ])
    await t.dispose()
  })

  test('AL-26 maxParallelTools: default 8, configured value applies, 0 and 65 rejected naming the key', async () => {
    expect(AgentConfig.parse({}).maxParallelTools).toBe(8)
    expect(AgentConfig.parse({ maxParallelTools: 3 }).maxParallelTools).toBe(3)
    expect(() => AgentConfig.parse({ maxParallelTools: 0 })).toThrow(
      /maxParallelTools: must be an integer 1–64 \(got 0\)/,
    )
    expect(() => AgentConfig.parse({ maxParallelTools: 65 })).toThrow(/maxParallelTools/)
    await expect(createTestAgent({ config: { agent: { maxParallelTools: 'lots' } } })).rejects.toThrow(
      /maxParallelTools/,
    )
  })
})
