// TL-30 budgets are validated Config: defaults, configured values, rejected values naming the key.
import { Context } from '@tack/kernel'
import { ToolsConfig } from '@tack/tools'
import { describe, expect, test } from 'vitest'
import { CodeRuntimeConfig, CodeRuntimePlugin } from '../src/index.ts'

describe('TL-30 code-runtime Config', () => {
  test('TL-30 defaults', () => {
    expect(CodeRuntimeConfig.parse({})).toEqual({
      computeMs: 60_000,
      maxWallMs: 600_000,
      memoryBytes: 268_435_456,
      maxLogBytes: 64_000,
    })
  })

  test('TL-30 configured values are kept and reach the runtime', async () => {
    const ctx = new Context()
    await ctx.plugin(CodeRuntimePlugin, {
      computeMs: 5,
      maxWallMs: 10,
      memoryBytes: 1_048_576,
      maxLogBytes: 1_024,
    })
    expect(ctx.codeRuntime.language).toBe('typescript')
    const outcome = await ctx.codeRuntime.run({
      code: 'while (true) {}',
      bindings: {},
      signal: new AbortController().signal,
    })
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' })
  })

  test('TL-30 out-of-range and mistyped values are rejected, naming the key and range', async () => {
    for (const [input, pattern] of [
      [{ computeMs: 0 }, /computeMs/],
      [{ maxWallMs: -1 }, /maxWallMs/],
      [{ memoryBytes: 1_000 }, /memoryBytes/],
      [{ memoryBytes: 8_589_934_592 }, /memoryBytes/],
      [{ maxLogBytes: 'lots' }, /maxLogBytes/],
      [{ timeout: 1 }, /timeout/],
    ] as const)
      expect(() => CodeRuntimeConfig.parse(input as never, 'config.yml')).toThrow(pattern)
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
})
