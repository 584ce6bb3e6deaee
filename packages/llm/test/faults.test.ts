// R3 and AL-22 over the wire: HTTP errors, Retry-After, broken and unfinished streams, hangs,
// network failures — each becomes an `LlmError` with the right status, transience and hint, before
// the first chunk (retryable) or after it (not retried).
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { LlmError } from '@tack/agent'
import { callModel } from '@tack/agent'
import { parseRetryAfter } from '../src/index.ts'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { bootLlm, adapterFor, drain, drainToError, ENV, KINDS, MODEL_OF, request, signal } from './helpers.ts'

let server: LoopbackServer
beforeEach(async () => {
  server = await startLoopbackServer()
})
afterEach(async () => {
  await server.close()
})

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError)
    return error as LlmError
  }
  throw new Error('expected a failure')
}

describe.each(KINDS)('%s', (kind) => {
  const model = MODEL_OF[kind]

  test('R3 429 with Retry-After fails before any chunk: status 429, transient, retryAfterMs', async () => {
    server.push({ kind: 'http-error', status: 429, retryAfter: 7 })
    const error = await failure(adapterFor(server).stream(request(model), signal()) as Promise<unknown>)
    expect(error).toMatchObject({ code: 'HTTP_429', status: 429, transient: true, retryAfterMs: 7000 })
    expect(error.message).toContain('429')
  })

  test('R3 500 is transient; 400 is not', async () => {
    server.push({ kind: 'http-error', status: 500 }, { kind: 'http-error', status: 400 })
    const e500 = await failure(adapterFor(server).stream(request(model), signal()) as Promise<unknown>)
    expect(e500).toMatchObject({ code: 'HTTP_500', status: 500, transient: true })
    expect(e500.retryAfterMs).toBeUndefined()
    const e400 = await failure(adapterFor(server).stream(request(model), signal()) as Promise<unknown>)
    expect(e400).toMatchObject({ code: 'HTTP_400', status: 400, transient: false })
  })

  test('R3 a stream cut mid-way (connection closed) fails after its first chunk', async () => {
    server.push({ kind: 'truncate', text: 'Half an ans', afterChunks: 1 })
    const response = await adapterFor(server).stream(request(model), signal())
    const { chunks, error } = await drainToError(response)
    expect(chunks).toEqual([{ type: 'text-delta', text: 'Half an ans' }])
    expect(error).toBeInstanceOf(LlmError)
    // Issue 9.6: a cut stream is a cut stream (or a network failure), never "HTTP 200".
    expect((error as LlmError).code).toMatch(/^(STREAM_TRUNCATED|NETWORK)$/)
    expect((error as LlmError).status).toBeUndefined()
    expect((error as Error).message).not.toMatch(/\b200\b/)
    expect((error as LlmError).transient).toBe(true)
    await expect(response.final).rejects.toBe(error)
  })

  test('R3 a stream that ends without a finish reason is an error, not an answer', async () => {
    server.push({ kind: 'no-finish', text: 'Looks complete' })
    const response = await adapterFor(server).stream(request(model), signal())
    const { chunks, error } = await drainToError(response)
    expect(chunks).toEqual([{ type: 'text-delta', text: 'Looks complete' }])
    expect(error).toBeInstanceOf(LlmError)
    expect((error as Error).message).toMatch(/before the model finished/)
    expect((error as LlmError).code).toBe('STREAM_TRUNCATED')
    await expect(response.final).rejects.toBe(error)
  })

  test('R3 an error event inside the stream fails the stream with the provider message', async () => {
    server.push({ kind: 'error', message: 'upstream exploded', afterChunks: 2, text: 'Partial' })
    const response = await adapterFor(server).stream(request(model), signal())
    const { chunks, error } = await drainToError(response)
    expect(chunks.map((c) => c.type)).toEqual(['text-delta', 'text-delta'])
    expect((error as Error).message).toContain('upstream exploded')
  })

  test('R3 a hang before any byte ends with a transient TIMEOUT after firstByteTimeoutMs', async () => {
    server.push({ kind: 'hang' })
    const error = await failure(
      adapterFor(server, { firstByteTimeoutMs: 150 }).stream(request(model), signal()) as Promise<unknown>,
    )
    expect(error).toMatchObject({ code: 'TIMEOUT', transient: true })
    expect(error.message).toContain('plugins.llm.firstByteTimeoutMs')
  })

  test('R3 a stream that goes silent after its first chunk times out as an error', async () => {
    server.push({ kind: 'hang', text: 'I was saying' })
    const response = await adapterFor(server, { idleTimeoutMs: 150 }).stream(request(model), signal())
    const { chunks, error } = await drainToError(response)
    expect(chunks).toEqual([{ type: 'text-delta', text: 'I was saying' }])
    expect(error).toMatchObject({ code: 'TIMEOUT' })
    expect((error as Error).message).toContain('plugins.llm.idleTimeoutMs')
  })
})

describe('errors', () => {
  test('R3 anthropic overload (529) is transient with code OVERLOADED', async () => {
    server.push({ kind: 'http-error', status: 529 })
    const error = await failure(
      adapterFor(server).stream(request(MODEL_OF.anthropic), signal()) as Promise<unknown>,
    )
    expect(error).toMatchObject({ code: 'OVERLOADED', status: 529, transient: true })
  })

  test('AL-22 retry-after-ms wins over retry-after; an HTTP date is honoured', async () => {
    expect(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' })).toBe(1500)
    expect(parseRetryAfter({ 'Retry-After': '2' })).toBe(2000)
    const now = Date.parse('2030-01-01T00:00:00Z')
    expect(parseRetryAfter({ 'retry-after': 'Tue, 01 Jan 2030 00:00:03 GMT' }, now)).toBe(3000)
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined()
    expect(parseRetryAfter(undefined)).toBeUndefined()
  })

  test('R3 an unreachable server is a transient network error', async () => {
    const port = server.port
    await server.close()
    const adapter = adapterFor({ ...server, baseUrl: `http://127.0.0.1:${port}/v1` })
    const error = await failure(adapter.stream(request(MODEL_OF.openai), signal()) as Promise<unknown>)
    expect(error).toMatchObject({ transient: true })
    expect(error.status).toBeUndefined()
    server = await startLoopbackServer()
  })

  test('AL-23 aborting a hanging request rejects with ABORTED and frees the connection', async () => {
    server.push({ kind: 'hang' })
    const controller = new AbortController()
    const pending = adapterFor(server).stream(request(MODEL_OF['openai-compatible']), controller.signal)
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5))
    controller.abort()
    const error = await failure(pending as Promise<unknown>)
    expect(error.code).toBe('ABORTED')
  })

  test('AL-22 a model without its key fails at once with MISSING_API_KEY, naming the variable only', async () => {
    const { createProviderAdapter, LlmConfig } = await import('../src/index.ts')
    const adapter = createProviderAdapter({ config: LlmConfig.parse({ baseUrl: server.baseUrl }), env: {} })
    const error = await failure(adapter.stream(request(MODEL_OF.anthropic), signal()) as Promise<unknown>)
    expect(error).toMatchObject({ code: 'MISSING_API_KEY', transient: false })
    expect(error.message).toContain('ANTHROPIC_API_KEY')
    expect(server.requests).toHaveLength(0)
  })
})

describe('retries through the llm plugin (AL-22)', () => {
  async function boot(retry: Record<string, number>) {
    const retries: { attempt: number; delayMs: number; error: string }[] = []
    const { ctx } = await bootLlm({ baseUrl: server.baseUrl, retry }, { env: ENV })
    ctx.on('llm/retry', (info) => {
      retries.push(info)
    })
    return { ctx, retries }
  }

  test('AL-22 429, 429, success → three attempts, two llm/retry, the answer', async () => {
    server.push(
      { kind: 'http-error', status: 429, retryAfter: 0 },
      { kind: 'http-error', status: 429, retryAfter: 0 },
      { kind: 'text', text: 'finally' },
    )
    const { ctx, retries } = await boot({ baseDelayMs: 0 })
    const { final } = await drain(await callModel(ctx, request(MODEL_OF.deepseek), signal()))
    expect(final.content).toEqual([{ type: 'text', text: 'finally' }])
    expect(server.requests).toHaveLength(3)
    expect(retries.map((r) => r.attempt)).toEqual([1, 2])
    expect(retries[0].error).toContain('429')
    await ctx.fiber.dispose()
  })

  test('AL-22 Retry-After is honoured up to maxDelayMs', async () => {
    server.push({ kind: 'http-error', status: 503, retryAfter: 120 }, { kind: 'text', text: 'ok' })
    const { ctx, retries } = await boot({ maxDelayMs: 20 })
    await drain(await callModel(ctx, request(MODEL_OF.openai), signal()))
    expect(retries).toEqual([{ attempt: 1, delayMs: 20, error: expect.stringContaining('503') }])
    await ctx.fiber.dispose()
  })

  test('AL-22 a failure after the first chunk is not retried', async () => {
    server.push({ kind: 'truncate', text: 'Half' }, { kind: 'text', text: 'never requested' })
    const { ctx, retries } = await boot({ baseDelayMs: 0 })
    const { chunks, error } = await drainToError(await callModel(ctx, request(MODEL_OF.anthropic), signal()))
    expect(chunks).toEqual([{ type: 'text-delta', text: 'Half' }])
    expect(error).toBeInstanceOf(LlmError)
    expect(retries).toEqual([])
    expect(server.requests).toHaveLength(1)
    expect(server.remaining).toBe(1)
    await ctx.fiber.dispose()
  })

  test('AL-22 a non-transient failure (401) is not retried', async () => {
    server.push({ kind: 'http-error', status: 401 }, { kind: 'text', text: 'never requested' })
    const { ctx, retries } = await boot({ baseDelayMs: 0 })
    await expect(callModel(ctx, request(MODEL_OF.openai), signal())).rejects.toMatchObject({ status: 401 })
    expect(retries).toEqual([])
    expect(server.requests).toHaveLength(1)
    await ctx.fiber.dispose()
  })

  test('9.6 a silent server is asked retry.maxStallAttempts times (default 2), not maxAttempts times', async () => {
    server.push({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' })
    const started = Date.now()
    const { ctx: fast } = await bootLlm(
      { baseUrl: server.baseUrl, retry: { baseDelayMs: 0 }, firstByteTimeoutMs: 100 },
      { env: ENV },
    )
    await expect(callModel(fast, request(MODEL_OF.openai), signal())).rejects.toMatchObject({
      code: 'TIMEOUT',
    })
    expect(server.requests).toHaveLength(2)
    expect(Date.now() - started).toBeLessThan(5000)
    await fast.fiber.dispose()
    const { ctx: once } = await bootLlm(
      { baseUrl: server.baseUrl, retry: { baseDelayMs: 0, maxStallAttempts: 1 }, firstByteTimeoutMs: 100 },
      { env: ENV },
    )
    await expect(callModel(once, request(MODEL_OF.openai), signal())).rejects.toMatchObject({
      code: 'TIMEOUT',
    })
    expect(server.requests).toHaveLength(3)
    await once.fiber.dispose()
  })

  test('AL-22 maxAttempts bounds the attempts; 1 disables retries', async () => {
    server.push(
      { kind: 'http-error', status: 500 },
      { kind: 'http-error', status: 500 },
      { kind: 'http-error', status: 500 },
    )
    const two = await boot({ baseDelayMs: 0, maxAttempts: 2 })
    await expect(callModel(two.ctx, request(MODEL_OF.openai), signal())).rejects.toMatchObject({
      status: 500,
    })
    expect(server.requests).toHaveLength(2)
    await two.ctx.fiber.dispose()
    const one = await boot({ baseDelayMs: 0, maxAttempts: 1 })
    await expect(callModel(one.ctx, request(MODEL_OF.openai), signal())).rejects.toMatchObject({
      status: 500,
    })
    expect(server.requests).toHaveLength(3)
    expect(one.retries).toEqual([])
    await one.ctx.fiber.dispose()
  })
})
