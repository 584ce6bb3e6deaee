// Model resolution (what `tack doctor` prints) and the model catalogue.
import { describe, expect, test } from 'vitest'
import {
  catalogEntry,
  contextWindowOf,
  costOf,
  DEFAULT_CONTEXT_WINDOW,
  defaultModel,
  keyVariables,
  LlmConfig,
  NO_MODEL_HELP,
  priceOf,
  resolveModel,
} from '../src/index.ts'
import { bootLlm, CANARY, ENV } from './helpers.ts'

const config = LlmConfig.parse({})

describe('resolveModel', () => {
  test.each([
    ['deepseek/deepseek-chat', 'deepseek', 'https://api.deepseek.com', 'DEEPSEEK_API_KEY'],
    ['openai/gpt-4.1', 'openai', 'https://api.openai.com/v1', 'OPENAI_API_KEY'],
    ['anthropic/claude-sonnet-4-5', 'anthropic', 'https://api.anthropic.com/v1', 'ANTHROPIC_API_KEY'],
  ])(
    'built-in %s: kind %s at %s, key from %s, reported present without the key',
    (model, kind, baseUrl, keyEnv) => {
      const resolved = resolveModel(config, model, ENV)
      expect(resolved).toMatchObject({
        kind,
        baseUrl,
        apiKeyEnv: keyEnv,
        keyRequired: true,
        keyPresent: true,
      })
      expect(resolved.problem).toBeUndefined()
      expect(JSON.stringify(resolved)).not.toContain(CANARY)
      const missing = resolveModel(config, model, {})
      expect(missing.keyPresent).toBe(false)
      expect(missing.problem).toContain(keyEnv)
    },
  )

  test('local/* is an OpenAI-compatible server at Ollama’s address that needs no key', () => {
    expect(resolveModel(config, 'local/qwen3:8b', {})).toMatchObject({
      kind: 'openai-compatible',
      provider: 'local',
      modelId: 'qwen3:8b',
      baseUrl: 'http://127.0.0.1:11434/v1',
      keyRequired: false,
      keyPresent: false,
    })
    expect(resolveModel(config, 'local/qwen3:8b', {}).problem).toBeUndefined()
  })

  test('the model id keeps everything after the first slash', () => {
    expect(resolveModel(config, 'local/org/model-7b', {}).modelId).toBe('org/model-7b')
  })

  test('baseUrl overrides built-ins but not an endpoint that sets its own', () => {
    const c = LlmConfig.parse({
      baseUrl: 'http://127.0.0.1:8080/v1',
      endpoints: { mine: { kind: 'anthropic', baseUrl: 'https://proxy.example/v1' } },
    })
    expect(resolveModel(c, 'openai/gpt-4o', ENV).baseUrl).toBe('http://127.0.0.1:8080/v1')
    expect(resolveModel(c, 'local/x', ENV).baseUrl).toBe('http://127.0.0.1:8080/v1')
    expect(resolveModel(c, 'mine/claude-haiku-4-5', ENV).baseUrl).toBe('https://proxy.example/v1')
  })

  test('named endpoints: kind defaults for key variable and URL, header names only, built-in names overridable', () => {
    const c = LlmConfig.parse({
      endpoints: {
        corp: { kind: 'openai', headers: { 'X-Secret-Token': CANARY } },
        gw: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:4000/v1', apiKeyEnv: 'GW_KEY' },
        bare: { kind: 'openai-compatible' },
        openai: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' },
      },
    })
    const corp = resolveModel(c, 'corp/gpt-4o', ENV)
    expect(corp).toMatchObject({
      kind: 'openai',
      apiKeyEnv: 'OPENAI_API_KEY',
      baseUrl: 'https://api.openai.com/v1',
    })
    expect(corp.headerNames).toEqual(['X-Secret-Token'])
    expect(JSON.stringify(corp)).not.toContain(CANARY)
    expect(resolveModel(c, 'gw/m', {})).toMatchObject({ keyRequired: true, keyPresent: false })
    expect(resolveModel(c, 'gw/m', { GW_KEY: 'x' })).toMatchObject({ keyPresent: true })
    expect(resolveModel(c, 'bare/m', {}).problem).toContain('endpoints.bare.baseUrl')
    expect(resolveModel(c, 'openai/gpt-4o', {})).toMatchObject({
      kind: 'openai-compatible',
      keyRequired: false,
    })
  })

  test('scripted/<file> resolves to the scripted provider unless disabled', () => {
    expect(resolveModel(config, 'scripted/run.json', {})).toMatchObject({
      kind: 'scripted',
      modelId: 'run.json',
    })
    expect(() => resolveModel(LlmConfig.parse({ scripted: false }), 'scripted/run.json', {})).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_MODEL' }),
    )
  })

  test.each(['gpt-4o', '/gpt-4o', 'openai/', 'nowhere/model'])(
    '%s is UNKNOWN_MODEL, naming the providers',
    (model) => {
      let caught: unknown
      try {
        resolveModel(config, model, ENV)
      } catch (error) {
        caught = error
      }
      expect(caught).toMatchObject({ code: 'UNKNOWN_MODEL' })
      expect((caught as Error).message).toContain('deepseek, openai, anthropic, local')
    },
  )

  test('defaultModel picks DeepSeek when its key is set; the help names the three ways to configure', () => {
    expect(defaultModel({ DEEPSEEK_API_KEY: 'k' })).toBe('deepseek/deepseek-chat')
    expect(defaultModel({ OPENAI_API_KEY: 'k' })).toBeUndefined()
    expect(NO_MODEL_HELP).toMatch(/DEEPSEEK_API_KEY.*--base-url.*endpoints/)
  })

  test('ctx.llmProviders.resolve answers from the plugin’s config and env', async () => {
    const { ctx } = await bootLlm({}, { env: { OPENAI_API_KEY: CANARY } })
    expect(ctx.llmProviders.resolve('openai/gpt-5')).toMatchObject({
      keyPresent: true,
      contextWindow: 400000,
    })
    expect(ctx.llmProviders.resolve('anthropic/claude-opus-4-1')).toMatchObject({ keyPresent: false })
    expect(ctx.llmProviders.providers()).toEqual(['deepseek', 'openai', 'anthropic', 'local', 'scripted'])
    await ctx.fiber.dispose()
  })
})

describe('catalogue', () => {
  test('known context windows, dated snapshots share their family, others get the 128000 default', () => {
    expect(contextWindowOf('deepseek/deepseek-chat')).toBe(128000)
    expect(contextWindowOf('openai/gpt-4.1-mini')).toBe(1047576)
    expect(contextWindowOf('gpt-5')).toBe(400000)
    expect(contextWindowOf('anthropic/claude-sonnet-4-5-20250929')).toBe(200000)
    expect(contextWindowOf('openai/gpt-4o-2024-08-06')).toBe(128000)
    expect(catalogEntry('openai/gpt-4o-mini')?.price?.input).toBe(0.15)
    expect(contextWindowOf('local/qwen3')).toBe(DEFAULT_CONTEXT_WINDOW)
    expect(DEFAULT_CONTEXT_WINDOW).toBe(128000)
    // A different model that merely shares a prefix is not guessed.
    expect(catalogEntry('anthropic/claude-opus-4-6')).toBeUndefined()
    expect(priceOf('local/qwen3')).toBeUndefined()
  })

  test('costOf bills uncached input, cache reads, cache writes and output at their rates', () => {
    // claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million.
    const cost = costOf('anthropic/claude-sonnet-4-5', {
      inputTokens: 1_000_000,
      cachedInputTokens: 600_000,
      cacheWriteTokens: 100_000,
      outputTokens: 100_000,
    })
    expect(cost).toBeCloseTo(300_000 * 3e-6 + 600_000 * 0.3e-6 + 100_000 * 3.75e-6 + 100_000 * 15e-6, 10)
    expect(costOf('local/qwen3', { inputTokens: 10, outputTokens: 10 })).toBeUndefined()
  })
})

describe('keyVariables', () => {
  test('9.3 names every variable an endpoint reads its key from, built-ins and configured alike', () => {
    const configured = LlmConfig.parse({
      endpoints: {
        mybox: { kind: 'openai-compatible', baseUrl: 'http://gpu:8000/v1', apiKeyEnv: 'GPU_PASS' },
        open: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1' },
        corp: { kind: 'anthropic', baseUrl: 'https://llm.corp/v1' },
      },
    })
    expect(keyVariables(configured)).toEqual([
      'ANTHROPIC_API_KEY',
      'DEEPSEEK_API_KEY',
      'GPU_PASS',
      'OPENAI_API_KEY',
    ])
  })
})

describe('ctx.secrets', () => {
  test('the plugin declares every key variable secret, so no command a tool runs inherits one', async () => {
    const { ctx } = await bootLlm({
      endpoints: {
        mybox: { kind: 'openai-compatible', baseUrl: 'http://gpu:8000/v1', apiKeyEnv: 'GPU_PASS' },
      },
    })
    expect(ctx.secrets.variables()).toEqual(expect.arrayContaining(['GPU_PASS', 'DEEPSEEK_API_KEY']))
    expect(ctx.secrets.variables().sort()).toEqual(ctx.llmProviders.keyVariables().sort())
  })
})
