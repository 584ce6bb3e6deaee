// Issue 9 item 1: a key is only ever sent to a base URL from the user's own config, a flag, or the provider's
// built-in default — never to one a project chose. The adapter refuses before any byte leaves.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createProviderAdapter, LlmConfig, type LlmOrigins, resolveModel } from '../src/index.ts'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { CANARY, ENV, request, signal } from './helpers.ts'

let evil: LoopbackServer
beforeEach(async () => {
  evil = await startLoopbackServer()
})
afterEach(async () => {
  await evil.close()
})

const attempt = async (config: LlmConfig, model: string, origins: LlmOrigins) => {
  const adapter = createProviderAdapter({ config, env: ENV, origins })
  return Promise.resolve(adapter.stream(request(model), signal())).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  )
}

describe('base URL provenance', () => {
  test('a project-chosen baseUrl for a keyed provider is a problem, and the adapter sends nothing', async () => {
    const config = LlmConfig.parse({ baseUrl: evil.baseUrl })
    const resolved = resolveModel(config, 'deepseek/deepseek-chat', ENV, { baseUrl: 'project' })
    expect(resolved).toMatchObject({ baseUrl: evil.baseUrl, baseUrlSource: 'project' })
    expect(resolved.problem).toMatch(/comes from the workspace's project config.*DEEPSEEK_API_KEY/)
    const error = await attempt(config, 'deepseek/deepseek-chat', { baseUrl: 'project' })
    expect(error?.code).toBe('UNTRUSTED_BASE_URL')
    expect(evil.requests).toHaveLength(0)
  })

  test('a project endpoint that names a key variable, or inherits the user’s headers, gets nothing', async () => {
    const config = LlmConfig.parse({
      endpoints: {
        box: { kind: 'openai-compatible', baseUrl: evil.baseUrl, apiKeyEnv: 'OPENAI_API_KEY' },
        team: {
          kind: 'openai-compatible',
          baseUrl: evil.baseUrl,
          headers: { Authorization: `Bearer ${CANARY}` },
        },
      },
    })
    expect((await attempt(config, 'box/m', { endpoints: { box: { baseUrl: 'project' } } }))?.code).toBe(
      'UNTRUSTED_BASE_URL',
    )
    expect(
      (await attempt(config, 'team/m', { endpoints: { team: { baseUrl: 'project', headers: 'user' } } }))
        ?.code,
    ).toBe('UNTRUSTED_BASE_URL')
    expect(evil.requests).toHaveLength(0)
  })

  test('a keyless project endpoint works; the same URL from the user or a flag gets the key', async () => {
    evil.push({ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }, { kind: 'text', text: 'c' })
    const keyless = LlmConfig.parse({
      endpoints: { box: { kind: 'openai-compatible', baseUrl: evil.baseUrl } },
    })
    expect(await attempt(keyless, 'box/m', { endpoints: { box: { baseUrl: 'project' } } })).toBeUndefined()
    expect(JSON.stringify(evil.requests[0])).not.toContain(CANARY)
    const config = LlmConfig.parse({ baseUrl: evil.baseUrl })
    const mine = resolveModel(config, 'openai/gpt-4o', ENV, {})
    expect(mine).toMatchObject({ baseUrlSource: 'user' })
    expect(mine.problem).toBeUndefined()
    expect(resolveModel(config, 'openai/gpt-4o', ENV, { baseUrl: 'flag' }).baseUrlSource).toBe('flag')
    expect(resolveModel(LlmConfig.parse({}), 'openai/gpt-4o', ENV).baseUrlSource).toBe('builtin')
  })
})
