// A provider that goes silent (docs/decisions/0160-stalled-model-streams.md), with the real provider
// packages against the loopback server: no headers, or headers and some SSE then nothing. Each bound
// fails the request TIMEOUT naming its config key and closes the socket; a stall before any content is
// retried under the retry policy; keep-alives and a slow consumer never count as silence.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { callModel, LlmError } from '@tack/agent'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { adapterFor, bootLlm, drain, drainToError, ENV, KINDS, MODEL_OF, request, signal } from './helpers.ts'

let server: LoopbackServer
beforeEach(async () => {
  server = await startLoopbackServer()
})
afterEach(async () => {
  await server.close()
})

/** Waits until the server saw the client close request `seq` before its response ended. */
async function abandonedBy(seq: number): Promise<void> {
  const until = Date.now() + 3000
  while (!server.abandoned.includes(seq)) {
    if (Date.now() > until) throw new Error(`request ${seq}'s connection is still open`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function rejection(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LlmError)
  return error as LlmError
}

describe.each(KINDS)('%s', (kind) => {
  const model = MODEL_OF[kind]

  test('no headers within plugins.llm.firstByteTimeoutMs: a transient TIMEOUT naming the key; the socket is closed', async () => {
    server.push({ kind: 'stall', after: 'accept' })
    const started = Date.now()
    const error = await rejection(
      adapterFor(server, { firstByteTimeoutMs: 150 }).stream(request(model), signal()) as Promise<unknown>,
    )
    expect(error).toMatchObject({ code: 'TIMEOUT', transient: true })
    expect(error.message).toContain('no response within 150 ms')
    expect(error.message).toContain('(plugins.llm.firstByteTimeoutMs)')
    expect(Date.now() - started).toBeLessThan(3000)
    await abandonedBy(0)
  })

  test('silence mid-stream past plugins.llm.idleTimeoutMs: TIMEOUT naming the key after the chunks; the socket is closed', async () => {
    server.push({ kind: 'stall', after: 'chunks', text: 'I was saying' })
    const response = await adapterFor(server, { idleTimeoutMs: 150 }).stream(request(model), signal())
    const { chunks, error } = await drainToError(response)
    expect(chunks).toEqual([{ type: 'text-delta', text: 'I was saying' }])
    expect(error).toMatchObject({ code: 'TIMEOUT' })
    expect((error as Error).message).toContain('silent for 150 ms (plugins.llm.idleTimeoutMs)')
    await expect(response.final).rejects.toBe(error)
    await abandonedBy(0)
  })

  test('a model thinking for 4× the idle bound with keep-alives (SSE comments, pings) is not a stall', async () => {
    server.push({ kind: 'text', text: 'thought it through', thinkMs: 800, keepAliveMs: 50 })
    const response = await adapterFor(server, { idleTimeoutMs: 200 }).stream(request(model), signal())
    const { final } = await drain(response)
    expect(final.content).toEqual([{ type: 'text', text: 'thought it through' }])
    expect(server.abandoned).toEqual([])
  })

  test('a slow consumer is not a silent provider: idle is measured on the provider’s bytes', async () => {
    // The provider sends a frame every 60 ms (~0.5 s in all), so the body is still arriving while the
    // consumer dawdles; 60 ms against a 200 ms bound leaves room for a loaded machine.
    const paced = await startLoopbackServer({
      script: [
        { kind: 'tool-calls', text: 'reading a file', calls: [{ name: 'read', args: { path: 'a' } }] },
      ],
      frameDelayMs: 60,
    })
    try {
      const response = await adapterFor(paced, { idleTimeoutMs: 200 }).stream(request(model), signal())
      const chunks: unknown[] = []
      for await (const chunk of response.chunks) {
        chunks.push(chunk)
        // The loop logs each chunk before reading the next; a slow disk or terminal takes this long.
        await new Promise((r) => setTimeout(r, 400))
      }
      expect(chunks.length).toBeGreaterThan(2)
      expect((await response.final).finishReason).toBe('tool-calls')
    } finally {
      await paced.close()
    }
  })
})

describe('stalls under the retry policy (AL-22)', () => {
  async function boot(config: Record<string, unknown>) {
    const retries: { attempt: number; error: string }[] = []
    const { ctx } = await bootLlm(
      { baseUrl: server.baseUrl, retry: { baseDelayMs: 0 }, ...config },
      { env: ENV },
    )
    ctx.on('llm/retry', (info) => {
      retries.push(info)
    })
    return { ctx, retries }
  }

  test('a stall before the headers is retried, and the next attempt’s answer is the result', async () => {
    server.push({ kind: 'stall', after: 'accept' }, { kind: 'text', text: 'recovered' })
    const { ctx, retries } = await boot({ firstByteTimeoutMs: 150 })
    const { final } = await drain(await callModel(ctx, request(MODEL_OF.openai), signal()))
    expect(final.content).toEqual([{ type: 'text', text: 'recovered' }])
    expect(server.requests).toHaveLength(2)
    expect(retries).toHaveLength(1)
    expect(retries[0].error).toContain('plugins.llm.firstByteTimeoutMs')
    await abandonedBy(0)
    await ctx.fiber.dispose()
  })

  test('a stall after the headers but before any content is retried too (nothing reached the log)', async () => {
    server.push({ kind: 'stall', after: 'headers' }, { kind: 'text', text: 'second try' })
    const { ctx, retries } = await boot({ idleTimeoutMs: 150 })
    const { final } = await drain(await callModel(ctx, request(MODEL_OF.anthropic), signal()))
    expect(final.content).toEqual([{ type: 'text', text: 'second try' }])
    expect(retries.map((r) => r.error)).toEqual([expect.stringContaining('plugins.llm.idleTimeoutMs')])
    await abandonedBy(0)
    await ctx.fiber.dispose()
  })

  test('a stall after content is not retried: the request fails with the bound and its key', async () => {
    server.push({ kind: 'stall', after: 'chunks', text: 'Half' }, { kind: 'text', text: 'never requested' })
    const { ctx, retries } = await boot({ idleTimeoutMs: 150 })
    const { chunks, error } = await drainToError(await callModel(ctx, request(MODEL_OF.deepseek), signal()))
    expect(chunks).toEqual([{ type: 'text-delta', text: 'Half' }])
    expect(error).toMatchObject({ code: 'TIMEOUT' })
    expect((error as Error).message).toBe(
      'deepseek: the response stream was silent for 150 ms (plugins.llm.idleTimeoutMs)',
    )
    expect(retries).toEqual([])
    expect(server.remaining).toBe(1)
    await ctx.fiber.dispose()
  })
})
