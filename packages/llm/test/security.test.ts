// Security 1: a canary API key (and credential header values) never appear in an error, a retry
// notification or a logged request — even when the provider echoes the credential back.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { callModel } from '@tack/agent'
import { createProviderAdapter, LlmConfig, redact } from '../src/index.ts'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { bootLlm, adapterFor, CANARY, ENV, KINDS, MODEL_OF, request, signal } from './helpers.ts'

let server: LoopbackServer
beforeEach(async () => {
  server = await startLoopbackServer()
})
afterEach(async () => {
  await server.close()
})

function everything(error: unknown): string {
  const e = error as Error
  return [
    String(e),
    e.message,
    e.stack,
    JSON.stringify(e),
    JSON.stringify((e as { cause?: unknown }).cause),
  ].join('\n')
}

describe.each(KINDS.filter((k) => k !== 'openai-compatible'))('%s', (kind) => {
  test('security 1: a 401 that echoes the key yields an error without it', async () => {
    server.push({ kind: 'http-error', status: 401, echoAuth: true })
    const error = await Promise.resolve(adapterFor(server).stream(request(MODEL_OF[kind]), signal())).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ status: 401 })
    expect((error as Error).message).toContain('[redacted]')
    expect(everything(error)).not.toContain(CANARY)
    expect(JSON.stringify(server.requests)).not.toContain(CANARY)
  })
})

test('security 1: retry notifications carry the redacted message', async () => {
  server.push(
    { kind: 'http-error', status: 500, echoAuth: true, retryAfter: 0 },
    { kind: 'text', text: 'ok' },
  )
  const { ctx } = await bootLlm({ baseUrl: server.baseUrl }, { env: ENV })
  const seen: string[] = []
  ctx.on('llm/retry', (info) => {
    seen.push(info.error)
  })
  const response = await callModel(ctx, request(MODEL_OF.deepseek), signal())
  for await (const _ of response.chunks);
  expect(seen).toHaveLength(1)
  expect(seen[0]).toContain('[redacted]')
  expect(seen[0]).not.toContain(CANARY)
  await ctx.fiber.dispose()
})

test('security 1: credential header values configured on an endpoint are redacted too', async () => {
  server.push({ kind: 'http-error', status: 403, echoAuth: true })
  const adapter = createProviderAdapter({
    config: LlmConfig.parse({
      endpoints: {
        gw: {
          kind: 'openai-compatible',
          baseUrl: server.baseUrl,
          headers: { Authorization: `Bearer ${CANARY}` },
        },
      },
    }),
    env: {},
  })
  const error = await Promise.resolve(adapter.stream(request('gw/model'), signal())).catch((e: unknown) => e)
  expect(error).toMatchObject({ status: 403 })
  expect(everything(error)).not.toContain(CANARY)
  expect(server.requests[0].headers.authorization).toBe('[redacted]')
})

test('security 1: redact covers the whole key and a visible head of a partly masked one', () => {
  expect(redact(`key ${CANARY} end`, [CANARY])).toBe('key [redacted] end')
  expect(redact(`Incorrect API key provided: ${CANARY.slice(0, 12)}…e0e`, [CANARY])).not.toContain(
    CANARY.slice(0, 12),
  )
  // Short values are not treated as secrets (they would redact ordinary words).
  expect(redact('a short abc', ['abc'])).toBe('a short abc')
})
