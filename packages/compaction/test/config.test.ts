// CP-7: every field's default, a configured value, and a rejected value (naming the key and the range);
// and the load-time check that `retainTokens` stays below a configured `contextWindow`.
import { createTestAgent } from '@tack/agent/testing'
import { describe, expect, test } from 'vitest'
import { CompactionConfig, CompactionPlugin } from '../src/index.ts'

describe('CP-7 config', () => {
  test('CP-7 defaults', () => {
    expect(CompactionConfig.parse({})).toEqual({
      auto: true,
      thresholdRatio: 0.8,
      retainTokens: 20000,
      charsPerToken: 4,
      maxTokens: 4096,
      compactionRetries: 2,
    })
    // contextWindow and summarizationModel default to the routed model's figures (absent here)
    expect('contextWindow' in CompactionConfig.parse({})).toBe(false)
    expect('summarizationModel' in CompactionConfig.parse({})).toBe(false)
  })

  const configured: Array<[string, unknown]> = [
    ['auto', false],
    ['contextWindow', 32768],
    ['thresholdRatio', 0.5],
    ['retainTokens', 5000],
    ['charsPerToken', 1.5],
    ['summarizationModel', 'deepseek/deepseek-chat'],
    ['maxTokens', 256],
    ['compactionRetries', 0],
  ]
  test.each(configured)('CP-7 configured %s', (key, value) => {
    expect(CompactionConfig.parse({ [key]: value })[key as keyof CompactionConfig]).toEqual(value)
  })

  const rejected: Array<[string, unknown, RegExp]> = [
    ['auto', 'yes', /^auto: must be true or false/],
    ['contextWindow', 4095, /^contextWindow: must be an integer ≥ 4096/],
    ['thresholdRatio', 0, /^thresholdRatio: must be a number > 0 and ≤ 1/],
    ['thresholdRatio', 1.5, /^thresholdRatio: must be a number > 0 and ≤ 1/],
    ['retainTokens', 999, /^retainTokens: must be an integer ≥ 1000/],
    ['charsPerToken', 0.4, /^charsPerToken: must be a number 0.5–16/],
    ['charsPerToken', 17, /^charsPerToken: must be a number 0.5–16/],
    ['summarizationModel', '', /^summarizationModel: must be a non-empty string/],
    ['maxTokens', 255, /^maxTokens: must be an integer 256–65536/],
    ['maxTokens', 65537, /^maxTokens: must be an integer 256–65536/],
    ['compactionRetries', 11, /^compactionRetries: must be an integer 0–10/],
    ['compactionRetries', -1, /^compactionRetries: must be an integer 0–10/],
  ]
  test.each(rejected)('CP-7 rejected %s = %j', (key, value, message) => {
    expect(() => CompactionConfig.parse({ [key]: value })).toThrow(message)
  })

  test('CP-7 retainTokens must stay below a configured contextWindow, at load', async () => {
    expect(() => CompactionConfig.parse({ contextWindow: 8192, retainTokens: 8192 })).toThrow(
      /^retainTokens: must be below contextWindow \(8192\) \(got 8192\)$/,
    )
    expect(CompactionConfig.parse({ contextWindow: 8192, retainTokens: 8191 }).retainTokens).toBe(8191)
    const t = await createTestAgent()
    await expect(
      Promise.resolve(t.ctx.plugin(CompactionPlugin, { contextWindow: 8192, retainTokens: 9000 })),
    ).rejects.toThrow(/retainTokens: must be below contextWindow/)
    await t.dispose()
  })

  test('CP-7 an unknown key is refused', () => {
    expect(() => CompactionConfig.parse({ threshold: 0.5 })).toThrow(/threshold: unknown key/)
  })
})
