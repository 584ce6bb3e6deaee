// 85-skills-and-commands.md I3 in @tack/llm (docs/decisions/0290-model-choice-and-effort.md): which models a
// picker offers (catalogue and config of usable providers, merged with a provider's own list), the
// `GET /models` request itself against a loopback server (key in the right header, never in a message),
// and the reasoning effort each wire protocol puts on the wire — or refuses for a model that takes none.
import { afterEach, describe, expect, test } from 'vitest'
import {
  ANTHROPIC_THINKING_BUDGET,
  effortProviderOptions,
  effortSupport,
  fetchProviderModels,
  LlmConfig,
  mergeListedModels,
  staticModelChoices,
} from '../src/index.ts'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { adapterFor, CANARY, drain, request, signal } from './helpers.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const config = (raw: Record<string, unknown> = {}) => LlmConfig.parse(raw)

describe('the models a picker offers', () => {
  test('only providers whose key is present: the catalogue by kind, the current and configured model first', () => {
    const { choices, listable } = staticModelChoices(
      config(),
      { OPENAI_API_KEY: CANARY },
      {
        current: 'openai/gpt-4.1',
        configured: 'deepseek/deepseek-chat',
      },
    )
    const models = choices.map((c) => c.model)
    expect(models.slice(0, 2)).toEqual(['openai/gpt-4.1', 'deepseek/deepseek-chat'])
    expect(choices[0].source).toBe('current')
    expect(models).toContain('openai/gpt-5-mini')
    // no DeepSeek or Anthropic key: their catalogue models are not offered (the configured one stays)
    expect(models).not.toContain('deepseek/deepseek-reasoner')
    expect(models.some((m) => m.startsWith('anthropic/'))).toBe(false)
    // OpenAI's list is worth asking; the built-in `local` (an Ollama nobody configured) is not
    expect(listable).toEqual([{ name: 'openai', kind: 'openai' }])
  })

  test('a configured endpoint: its listed model ids, and its own list; a project-chosen URL with a key is not usable', () => {
    const raw = {
      endpoints: {
        box: { kind: 'openai-compatible', baseUrl: 'http://gpu:8000/v1', images: ['qwen-vl'] },
        proxy: { kind: 'anthropic', baseUrl: 'http://proxy:9000/v1' },
      },
    }
    const { choices, listable } = staticModelChoices(
      config(raw),
      { ANTHROPIC_API_KEY: CANARY },
      {
        origins: { endpoints: { proxy: { baseUrl: 'project' } } },
      },
    )
    const models = choices.map((c) => c.model)
    expect(models).toContain('box/qwen-vl')
    expect(models).toContain('anthropic/claude-sonnet-4-5')
    expect(models.some((m) => m.startsWith('proxy/'))).toBe(false)
    expect(listable.map((p) => p.name).sort()).toEqual(['anthropic', 'box'])
  })

  test("a provider's list is added after the known models, without repeating one", () => {
    const merged = mergeListedModels(
      [
        { model: 'box/a', source: 'current' },
        { model: 'box/b', source: 'endpoint' },
      ],
      'box',
      ['b', 'c', 'a', 'd'],
    )
    expect(merged).toEqual([
      { model: 'box/a', source: 'current' },
      { model: 'box/b', source: 'endpoint' },
      { model: 'box/c', source: 'provider' },
      { model: 'box/d', source: 'provider' },
    ])
  })
})

describe('GET /models', () => {
  test('OpenAI-style: Bearer key, ids sorted, non-chat models of OpenAI left out', async () => {
    server = await startLoopbackServer({
      models: ['gpt-5', 'text-embedding-3-small', 'gpt-4.1'],
      expectApiKey: CANARY,
    })
    const ids = await fetchProviderModels({
      kind: 'openai',
      baseUrl: server.baseUrl,
      apiKey: CANARY,
      headers: {},
    })
    expect(ids).toEqual(['gpt-4.1', 'gpt-5'])
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models', authorized: true })
    expect(server.requests[0].headers.authorization).toBe('[redacted]')
  })

  test('Anthropic: the key as x-api-key with anthropic-version', async () => {
    server = await startLoopbackServer({ models: ['claude-sonnet-4-5'], expectApiKey: CANARY })
    const ids = await fetchProviderModels({
      kind: 'anthropic',
      baseUrl: server.baseUrl,
      apiKey: CANARY,
      headers: {},
    })
    expect(ids).toEqual(['claude-sonnet-4-5'])
    expect(server.requests[0].headers['anthropic-version']).toBe('2023-06-01')
    expect(server.requests[0].headers['x-api-key']).toBe('[redacted]')
  })

  test('a refusal is one line without the key, even when the server echoes it', async () => {
    server = await startLoopbackServer({ models: ['m'], expectApiKey: 'another-key-entirely' })
    const failed = fetchProviderModels({
      kind: 'openai-compatible',
      baseUrl: `${server.url}/echo-${CANARY}`,
      apiKey: CANARY,
      headers: {},
    })
    const message = await failed.then(
      () => '',
      (error: Error) => error.message,
    )
    // the server's 404 names the path, which holds the key: the message has the path, not the key
    expect(message).toMatch(/^HTTP 404: .*\/echo-\[redacted\]/)
    expect(message).not.toContain(CANARY.slice(0, 12))
    const refused = fetchProviderModels({
      kind: 'openai',
      baseUrl: server.baseUrl,
      apiKey: CANARY,
      headers: {},
    })
    await expect(refused).rejects.toThrow(/HTTP 401/)
  })

  test('a server that never answers is given up after the timeout', async () => {
    const { createServer } = await import('node:http')
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as { port: number }).port
    try {
      const started = Date.now()
      await expect(
        fetchProviderModels(
          { kind: 'openai-compatible', baseUrl: `http://127.0.0.1:${port}/v1`, headers: {} },
          { timeoutMs: 200 },
        ),
      ).rejects.toThrow('no answer within')
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })
})

describe('reasoning effort per provider', () => {
  test('which models take one, and the reason when not', () => {
    expect(effortSupport('openai', 'gpt-5-mini').ok).toBe(true)
    expect(effortSupport('openai', 'o3').ok).toBe(true)
    expect(effortSupport('openai', 'gpt-4.1')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not an OpenAI reasoning model'),
    })
    expect(effortSupport('openai', 'gpt-5-chat-latest').ok).toBe(false)
    expect(effortSupport('anthropic', 'claude-sonnet-4-5').ok).toBe(true)
    expect(effortSupport('anthropic', 'claude-3-7-sonnet-20250219').ok).toBe(true)
    expect(effortSupport('anthropic', 'claude-3-5-haiku').ok).toBe(false)
    expect(effortSupport('deepseek', 'deepseek-reasoner')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('has no effort setting'),
    })
    expect(effortSupport('openai-compatible', 'anything').ok).toBe(true)
  })

  test('the options each protocol gets; none for a model that takes no effort', () => {
    expect(effortProviderOptions('openai', 'openai', 'gpt-5', 'low')).toEqual({
      openai: { reasoningEffort: 'low' },
    })
    expect(effortProviderOptions('openai-compatible', 'box', 'q', 'high')).toEqual({
      box: { reasoningEffort: 'high' },
    })
    expect(effortProviderOptions('anthropic', 'anthropic', 'claude-opus-4-1', 'medium')).toEqual({
      anthropic: { thinking: { type: 'enabled', budgetTokens: ANTHROPIC_THINKING_BUDGET.medium } },
    })
    expect(effortProviderOptions('openai', 'openai', 'gpt-4.1', 'high')).toBeUndefined()
    expect(effortProviderOptions('deepseek', 'deepseek', 'deepseek-chat', 'high')).toBeUndefined()
    expect(effortProviderOptions('openai', 'openai', 'gpt-5', undefined)).toBeUndefined()
  })

  test.each([
    ['local/qwen3', (body: Record<string, unknown>) => expect(body.reasoning_effort).toBe('high')],
    ['openai/gpt-5', (body: Record<string, unknown>) => expect(body.reasoning_effort).toBe('high')],
    [
      'anthropic/claude-sonnet-4-5',
      (body: Record<string, unknown>) =>
        expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: ANTHROPIC_THINKING_BUDGET.high }),
    ],
    [
      'openai/gpt-4.1',
      (body: Record<string, unknown>) => expect(body).not.toHaveProperty('reasoning_effort'),
    ],
  ])('%s: the effort on the wire', async (model, check) => {
    server = await startLoopbackServer({ script: [{ kind: 'text', text: 'ok' }] })
    await drain(
      await adapterFor(server).stream(
        request(model, { config: { model, reasoningEffort: 'high' } }),
        signal(),
      ),
    )
    check(server.requests[0].body as Record<string, unknown>)
  })
})
