import { describe, expect, test } from 'vitest'
import {
  createScriptedModel,
  createTestAgent,
  error,
  hang,
  reasoning,
  respond,
  ScriptExhaustedError,
  text,
  toolCalls,
} from '@tack/agent/testing'
import { withRetry } from '@tack/llm'
import type { LlmRequest } from '@tack/agent'
import type { StreamChunk } from '@tack/session'
import { user } from './helpers.ts'

const request: LlmRequest = { config: { model: 'scripted/test' }, messages: [] }

async function drain(chunks: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const out: StreamChunk[] = []
  for await (const c of chunks) out.push(c)
  return out
}

describe('llm/stream and the scripted model', () => {
  test('AL-20 the request is deep-frozen; chunk events follow stream order; the logged message equals final', async () => {
    let received: LlmRequest | undefined
    const t = await createTestAgent({
      script: [reasoning('thinking', 'the answer', { usage: { inputTokens: 10, outputTokens: 3 } })],
      setup: (ctx) => {
        ctx.on('llm/stream', async (req, _signal, next) => {
          received = req
          return next()
        })
      },
    })
    await t.agent.send(user('q'))
    expect(Object.isFrozen(received)).toBe(true)
    expect(() => {
      ;(received!.messages as unknown[]).push('x')
    }).toThrow()
    expect(() => {
      ;(received!.messages[0].content as unknown[]).push('x')
    }).toThrow()
    const chunks = t
      .events()
      .filter((e) => e.type === 'assistant/chunk')
      .map((e) => (e.data as { chunk: StreamChunk }).chunk)
    expect(chunks.map((c) => c.type)).toEqual([
      'reasoning-delta',
      'text-delta',
      'text-delta',
      'usage',
      'finish',
    ])
    const message = t.events().find((e) => e.type === 'assistant/message')
    expect(message?.data).toEqual({
      turn: 1,
      step: 1,
      content: [
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'the answer' },
      ],
      finishReason: 'stop',
      usage: { inputTokens: 10, outputTokens: 3 },
    })
    await t.dispose()
  })

  test('AL-20 a model with no adapter ends the turn error UNKNOWN_MODEL', async () => {
    const t = await createTestAgent({ agentOptions: { config: { model: 'nowhere/none' } } })
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'UNKNOWN_MODEL' })
    await t.dispose()
  })

  test('AL-21 scripted model: call ids, finish reasons, requests recorded, exhaustion, assertConsumed', async () => {
    const model = createScriptedModel([
      toolCalls([
        { name: 'a', args: { x: 1 } },
        { name: 'b', rawArguments: '{bad' },
      ]),
      text('t'),
    ])
    const signal = new AbortController().signal
    const r1 = await model.adapter.stream(request, signal)
    const c1 = await drain(r1.chunks)
    expect(c1.filter((c) => c.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', callId: 'call_1', name: 'a', argumentsDelta: '{"x":1}' },
      { type: 'tool-call-delta', callId: 'call_2', name: 'b', argumentsDelta: '{bad' },
    ])
    expect((await r1.final).finishReason).toBe('tool-calls')
    expect(() => model.assertConsumed()).toThrow(/1 unplayed/)
    await drain((await model.adapter.stream(request, signal)).chunks)
    model.assertConsumed()
    expect(model.requests).toHaveLength(2)
    expect(() => model.adapter.stream(request, signal)).toThrow(ScriptExhaustedError)
  })

  test('AL-21 scripted model: error before the first chunk, broken stream, hang until aborted, respond', async () => {
    const model = createScriptedModel([
      error('rate limited', { transient: true, status: 429 }),
      error('broke', { afterChunks: 2 }),
      hang(),
      respond((req) => text(`saw ${req.messages.length} messages`)),
    ])
    const signal = new AbortController().signal
    expect(() => model.adapter.stream(request, signal)).toThrow(
      expect.objectContaining({ code: 'HTTP_429', transient: true, status: 429 }),
    )
    const broken = await model.adapter.stream(request, signal)
    await expect(drain(broken.chunks)).rejects.toThrow('broke')
    const ac = new AbortController()
    const hung = await model.adapter.stream(request, ac.signal)
    const pending = drain(hung.chunks)
    ac.abort()
    await expect(pending).rejects.toThrow(/aborted/)
    const r = await model.adapter.stream(request, signal)
    expect((await r.final).content).toEqual([{ type: 'text', text: 'saw 0 messages' }])
  })

  test('AL-22 429, 429, success → three attempts, two llm/retry, one assistant/message', async () => {
    const retries: Array<{ attempt: number; delayMs: number }> = []
    const t = await createTestAgent({
      script: [error('busy', { status: 429 }), error('busy', { status: 429 }), text('finally')],
    })
    t.ctx.modelAdapters.register(
      ['scripted/test'],
      withRetry(
        // the scripted adapter registered by createTestAgent, behind the retry policy
        { stream: (r, s) => t.model.adapter.stream(r, s) },
        { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 4 },
        { onRetry: (i) => retries.push(i) },
      ),
    )
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(t.model.requests).toHaveLength(3)
    expect(retries.map((r) => r.attempt)).toEqual([1, 2])
    expect(t.events().filter((e) => e.type === 'assistant/message')).toHaveLength(1)
    await t.dispose()
  })

  test('AL-22 a failure after the first chunk is not retried; a non-transient one is not retried', async () => {
    const t = await createTestAgent({
      script: [error('mid-stream', { status: 500, afterChunks: 1 }), error('bad request', { status: 400 })],
    })
    t.ctx.modelAdapters.register(
      ['scripted/test'],
      withRetry(
        { stream: (r, s) => t.model.adapter.stream(r, s) },
        { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 4 },
      ),
    )
    expect((await t.agent.send(user('1'))).reason).toMatchObject({ kind: 'error', message: 'mid-stream' })
    expect(t.model.requests).toHaveLength(1)
    expect((await t.agent.send(user('2'))).reason).toMatchObject({ kind: 'error', message: 'bad request' })
    expect(t.model.requests).toHaveLength(2)
    await t.dispose()
  })
})
