// Every `llm` config field: its default, a configured value taking effect, and rejected values
// failing loudly with the key and the allowed range named.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { ModelAdapters, callModel } from '@tack/agent'
import { ConfigError, Context } from '@tack/kernel'
import { createLlmPlugin, LlmConfig } from '../src/index.ts'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { bootLlm, CANARY, drain, ENV, MODEL_OF, request } from './helpers.ts'

let server: LoopbackServer
beforeEach(async () => {
  server = await startLoopbackServer()
})
afterEach(async () => {
  await server.close()
})

function rejects(value: unknown, path: string): ConfigError {
  let caught: unknown
  try {
    LlmConfig.parse(value, '.tack/config.yml')
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(ConfigError)
  const error = caught as ConfigError
  expect(error.message).toContain('.tack/config.yml')
  expect(error.issues.map((i) => i.path)).toContain(path)
  return error
}

/** Boots the plugin (jitter fixed at its minimum) and runs one request, aborting on the first retry. */
async function firstRetry(config: Record<string, unknown>) {
  const { ctx } = await bootLlm({ baseUrl: server.baseUrl, ...config }, { env: ENV, random: () => 0 })
  const controller = new AbortController()
  const retries: { attempt: number; delayMs: number }[] = []
  ctx.on('llm/retry', (info) => {
    retries.push(info)
    controller.abort()
  })
  await expect(callModel(ctx, request(MODEL_OF.openai), controller.signal)).rejects.toBeDefined()
  await ctx.fiber.dispose()
  return retries
}

describe('retry', () => {
  test('AL-22 defaults: baseDelayMs 1000, maxDelayMs 30000, maxAttempts 4', () => {
    expect(LlmConfig.parse({}).retry).toEqual({
      baseDelayMs: 1000,
      maxDelayMs: 30000,
      maxAttempts: 4,
      maxStallAttempts: 2,
    })
  })

  test('AL-22 retry.baseDelayMs: default 1000 sets the first wait; a configured value replaces it', async () => {
    server.push({ kind: 'http-error', status: 429 })
    // Equal jitter at its minimum: half the exponential delay.
    expect(await firstRetry({})).toEqual([expect.objectContaining({ attempt: 1, delayMs: 500 })])
    server.push({ kind: 'http-error', status: 429 })
    expect(await firstRetry({ retry: { baseDelayMs: 80 } })).toEqual([
      expect.objectContaining({ attempt: 1, delayMs: 40 }),
    ])
  })

  test('AL-22 retry.maxDelayMs: default 30000 caps a Retry-After hint; a configured value caps lower', async () => {
    server.push({ kind: 'http-error', status: 429, retryAfter: 600 })
    expect(await firstRetry({})).toEqual([expect.objectContaining({ delayMs: 30000 })])
    server.push({ kind: 'http-error', status: 429, retryAfter: 600 })
    expect(await firstRetry({ retry: { maxDelayMs: 1234 } })).toEqual([
      expect.objectContaining({ delayMs: 1234 }),
    ])
  })

  test('AL-22 retry.maxAttempts: default 4 attempts; configured 2', async () => {
    const fail = { kind: 'http-error', status: 500, retryAfter: 0 } as const
    server.push(fail, fail, fail, fail, fail)
    const { ctx } = await bootLlm({ baseUrl: server.baseUrl }, { env: ENV })
    await expect(
      callModel(ctx, request(MODEL_OF.openai), new AbortController().signal),
    ).rejects.toMatchObject({
      status: 500,
    })
    expect(server.requests).toHaveLength(4)
    await ctx.fiber.dispose()
    const two = await bootLlm({ baseUrl: server.baseUrl, retry: { maxAttempts: 2 } }, { env: ENV })
    await expect(
      callModel(two.ctx, request(MODEL_OF.openai), new AbortController().signal),
    ).rejects.toBeDefined()
    expect(server.requests).toHaveLength(6)
    await two.ctx.fiber.dispose()
  })

  test.each([
    [{ retry: { baseDelayMs: -1 } }, 'retry.baseDelayMs'],
    [{ retry: { baseDelayMs: 600001 } }, 'retry.baseDelayMs'],
    [{ retry: { baseDelayMs: 1.5 } }, 'retry.baseDelayMs'],
    [{ retry: { maxDelayMs: -1 } }, 'retry.maxDelayMs'],
    [{ retry: { maxDelayMs: 600001 } }, 'retry.maxDelayMs'],
    [{ retry: { maxAttempts: 0 } }, 'retry.maxAttempts'],
    [{ retry: { maxAttempts: 21 } }, 'retry.maxAttempts'],
    [{ retry: { maxAttempts: '3' } }, 'retry.maxAttempts'],
    [{ retry: { tries: 3 } }, 'retry.tries'],
  ])('AL-22 rejected: %j names %s', (value, path) => {
    const error = rejects(value, path)
    expect(error.message).toMatch(/integer|unknown key/)
  })

  test('AL-22 loading the plugin with a rejected value fails', async () => {
    await expect(bootLlm({ retry: { maxAttempts: 0 } })).rejects.toThrow(/maxAttempts/)
  })
})

describe('endpoints, baseUrl, idleTimeoutMs, scripted', () => {
  test('endpoints: default none; a configured endpoint serves <name>/*', async () => {
    expect(LlmConfig.parse({}).endpoints).toEqual({})
    server.push({ kind: 'text', text: 'from vllm' })
    const { ctx } = await bootLlm(
      {
        endpoints: {
          vllm: {
            kind: 'openai-compatible',
            baseUrl: server.baseUrl,
            apiKeyEnv: 'VLLM_KEY',
            headers: { 'X-Team': 'tack' },
          },
        },
      },
      { env: { VLLM_KEY: 'vllm-secret-key-123456' } },
    )
    const { final } = await drain(await callModel(ctx, request('vllm/llama-3'), new AbortController().signal))
    expect(final.content).toEqual([{ type: 'text', text: 'from vllm' }])
    expect(server.requests[0].headers).toMatchObject({ 'x-team': 'tack', authorization: '[redacted]' })
    expect(server.requests[0].body).toMatchObject({ model: 'llama-3' })
    expect(ctx.llmProviders.providers()).toContain('vllm')
    await ctx.fiber.dispose()
  })

  test.each([
    [{ endpoints: { x: { kind: 'grpc' } } }, 'endpoints.x.kind'],
    [{ endpoints: { x: { kind: 'openai', baseUrl: 'ftp://host' } } }, 'endpoints.x.baseUrl'],
    [{ endpoints: { x: { kind: 'openai', apiKeyEnv: CANARY } } }, 'endpoints.x.apiKeyEnv'],
    [{ endpoints: { x: { kind: 'openai', token: 'abc' } } }, 'endpoints.x.token'],
    [{ endpoints: { x: { kind: 'openai', headers: { 'X-Key': 42 } } } }, 'endpoints.x.headers.X-Key'],
    [{ endpoints: { scripted: { kind: 'openai' } } }, 'endpoints.scripted'],
    [{ endpoints: { 'bad name': { kind: 'openai' } } }, 'endpoints.bad name'],
    [{ endpoints: [] }, 'endpoints'],
  ])('rejected endpoints %j name %s', (value, path) => {
    const error = rejects(value, path)
    // A value that may be a credential is never echoed.
    expect(error.message).not.toContain(CANARY)
  })

  test('baseUrl: default unset; configured it serves built-in providers; a non-URL is rejected', () => {
    expect(LlmConfig.parse({}).baseUrl).toBeUndefined()
    expect(LlmConfig.parse({ baseUrl: 'http://127.0.0.1:8080/v1' }).baseUrl).toBe('http://127.0.0.1:8080/v1')
    rejects({ baseUrl: 'ftp://127.0.0.1' }, 'baseUrl')
    rejects({ baseUrl: 'not a url' }, 'baseUrl')
    rejects({ baseUrl: 42 }, 'baseUrl')
  })

  test('retry.maxStallAttempts: default 2, configured value, rejected out of range', () => {
    expect(LlmConfig.parse({}).retry.maxStallAttempts).toBe(2)
    expect(LlmConfig.parse({ retry: { maxStallAttempts: 1 } }).retry.maxStallAttempts).toBe(1)
    rejects({ retry: { maxStallAttempts: 0 } }, 'retry.maxStallAttempts')
    rejects({ retry: { maxStallAttempts: 21 } }, 'retry.maxStallAttempts')
  })

  test('idleTimeoutMs: default 300000 (on, as Codex and Claude Code), configured value, rejected out of range', () => {
    expect(LlmConfig.parse({}).idleTimeoutMs).toBe(300000)
    expect(LlmConfig.parse({ idleTimeoutMs: 1500 }).idleTimeoutMs).toBe(1500)
    expect(LlmConfig.parse({ idleTimeoutMs: 0 }).idleTimeoutMs).toBe(0)
    rejects({ idleTimeoutMs: -1 }, 'idleTimeoutMs')
    rejects({ idleTimeoutMs: 3600001 }, 'idleTimeoutMs')
    rejects({ idleTimeoutMs: 2.5 }, 'idleTimeoutMs')
  })

  test('firstByteTimeoutMs: default 300000 (on), configured value, rejected out of range', () => {
    expect(LlmConfig.parse({}).firstByteTimeoutMs).toBe(300000)
    expect(LlmConfig.parse({ firstByteTimeoutMs: 900000 }).firstByteTimeoutMs).toBe(900000)
    expect(LlmConfig.parse({ firstByteTimeoutMs: 0 }).firstByteTimeoutMs).toBe(0)
    const error = rejects({ firstByteTimeoutMs: -5 }, 'firstByteTimeoutMs')
    expect(error.message).toContain('0–3600000')
    rejects({ firstByteTimeoutMs: 3600001 }, 'firstByteTimeoutMs')
    rejects({ firstByteTimeoutMs: '5m' }, 'firstByteTimeoutMs')
  })

  test('AL-21 scripted: default on (scripted/* served); false leaves it unserved; a non-boolean is rejected', async () => {
    expect(LlmConfig.parse({}).scripted).toBe(true)
    const on = await bootLlm({})
    expect(on.ctx.modelAdapters.knownPatterns()).toContain('scripted/*')
    await on.ctx.fiber.dispose()
    const off = await bootLlm({ scripted: false })
    expect(off.ctx.modelAdapters.knownPatterns()).not.toContain('scripted/*')
    await expect(
      callModel(off.ctx, request('scripted/x.json'), new AbortController().signal),
    ).rejects.toMatchObject({ code: 'UNKNOWN_MODEL' })
    await off.ctx.fiber.dispose()
    rejects({ scripted: 'yes' }, 'scripted')
  })

  test('disposing the plugin ends a model list still asked of a server that never answers', async () => {
    const { createServer } = await import('node:http')
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as { port: number }).port
    const ctx = new Context()
    ctx.provide('modelAdapters', new ModelAdapters())
    try {
      const fiber = await ctx.plugin(createLlmPlugin(), {
        endpoints: { silent: { kind: 'openai-compatible', baseUrl: `http://127.0.0.1:${port}/v1` } },
      })
      const listed = ctx.llmProviders.listModels('silent')
      const started = Date.now()
      await fiber.dispose()
      await expect(listed).rejects.toThrow()
      // well before the list's own timeout (MODEL_LIST_TIMEOUT_MS, 5 s), which held tack's exit before
      expect(Date.now() - started).toBeLessThan(1000)
    } finally {
      silent.closeAllConnections()
      silent.close()
      await ctx.fiber.dispose()
    }
  })

  test('disposing the plugin unregisters its adapters', async () => {
    const ctx = new Context()
    ctx.provide('modelAdapters', new ModelAdapters())
    const fiber = await ctx.plugin(createLlmPlugin(), {})
    expect(ctx.modelAdapters.knownPatterns()).toEqual(
      expect.arrayContaining(['deepseek/*', 'openai/*', 'anthropic/*', 'local/*', 'scripted/*']),
    )
    await fiber.dispose()
    expect(ctx.modelAdapters.knownPatterns()).toEqual([])
    await ctx.fiber.dispose()
  })
})
