// TL-30 budgets are validated Config: defaults, configured values, rejected values naming the key.
import { Context } from '@tack/kernel'
import { ToolsConfig } from '@tack/tools'
import { describe, expect, test } from 'vitest'
import { CodeRuntimeConfig, CodeRuntimePlugin } from '../src/index.ts'

/** Each budget: its default, a value that is kept, and values rejected naming it. */
const BUDGETS = [
  { key: 'computeMs', byDefault: 60_000, kept: 5, rejected: [0] },
  { key: 'maxWallMs', byDefault: 600_000, kept: 10, rejected: [-1] },
  { key: 'memoryBytes', byDefault: 268_435_456, kept: 1_048_576, rejected: [1_000, 8_589_934_592] },
  { key: 'maxLogBytes', byDefault: 64_000, kept: 1_024, rejected: ['lots'] },
  { key: 'stopGraceMs', byDefault: 1_000, kept: 0, rejected: [-1, 60_001] },
] as const

describe('TL-30 code-runtime Config', () => {
  test('TL-30 defaults', () => {
    expect(CodeRuntimeConfig.parse({})).toEqual(Object.fromEntries(BUDGETS.map((b) => [b.key, b.byDefault])))
  })

  test('TL-30 configured values are kept and reach the runtime', async () => {
    const configured = Object.fromEntries(BUDGETS.map((b) => [b.key, b.kept]))
    expect(CodeRuntimeConfig.parse(configured)).toEqual(configured)
    const ctx = new Context()
    await ctx.plugin(CodeRuntimePlugin, configured)
    expect(ctx.codeRuntime.language).toBe('typescript')
    const outcome = await ctx.codeRuntime.run({
      code: 'while (true) {}',
      bindings: {},
      signal: new AbortController().signal,
    })
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' })
  })

  test.each(BUDGETS)(
    'TL-30 an out-of-range or mistyped $key is rejected, naming the key',
    ({ key, rejected }) => {
      for (const value of rejected)
        expect(() => CodeRuntimeConfig.parse({ [key]: value } as never, 'config.yml')).toThrow(
          new RegExp(key),
        )
    },
  )

  test('TL-30 an unknown key is rejected; the plugin refuses a bad budget', async () => {
    expect(() => CodeRuntimeConfig.parse({ timeout: 1 } as never, 'config.yml')).toThrow(/timeout/)
    const ctx = new Context()
    await expect(ctx.plugin(CodeRuntimePlugin, { computeMs: 0 })).rejects.toThrow(/computeMs/)
  })

  test('TL-27 dispatchSummaryMaxChars: default, configured, rejected', () => {
    expect(ToolsConfig.parse({}).dispatchSummaryMaxChars).toBe(500)
    expect(ToolsConfig.parse({ dispatchSummaryMaxChars: 0 }).dispatchSummaryMaxChars).toBe(0)
    expect(() => ToolsConfig.parse({ dispatchSummaryMaxChars: -1 }, 'config.yml')).toThrow(
      /dispatchSummaryMaxChars/,
    )
  })

  test('dispatchArgumentsMaxChars: default, configured, rejected naming the key and range', () => {
    expect(ToolsConfig.parse({}).dispatchArgumentsMaxChars).toBe(64_000)
    expect(ToolsConfig.parse({ dispatchArgumentsMaxChars: 256 }).dispatchArgumentsMaxChars).toBe(256)
    for (const value of [255, 64 * 1024 * 1024 + 1, 'lots'])
      expect(() => ToolsConfig.parse({ dispatchArgumentsMaxChars: value } as never, 'config.yml')).toThrow(
        /dispatchArgumentsMaxChars/,
      )
  })
})
