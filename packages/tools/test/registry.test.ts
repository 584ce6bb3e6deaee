import type { Context } from 'cordis'
import { describe, expect, test } from 'vitest'
import {
  CodeModeUnavailableError,
  defineTool,
  registerTool,
  type ToolDefinition,
  ToolRegistrationError,
  ToolsConfig,
  ToolsPlugin,
} from '../src/index.ts'
import { echoTool } from '../src/testing/index.ts'
import { call, createToolsContext, thrownBy } from './support.ts'

const named = (name: string): ToolDefinition =>
  defineTool({
    name,
    description: `the ${name} tool`,
    parameters: { type: 'object', properties: {} },
    execute: () => name,
  })

const registrationError = (fn: () => unknown) => thrownBy(ToolRegistrationError, fn)

describe('TL-1 registration', () => {
  test('TL-1 after the disposer runs the tool is absent from schemas() and calling it yields UNKNOWN_TOOL', async () => {
    const ctx = await createToolsContext()
    const dispose = ctx.tools.register(echoTool)
    expect(ctx.tools.schemas().map((s) => s.name)).toEqual(['echo'])
    expect((await ctx.tools.execute(call('echo', { text: 'x' }))).isError).toBe(false)
    dispose()
    expect(ctx.tools.schemas()).toEqual([])
    const result = await ctx.tools.execute(call('echo', { text: 'x' }))
    expect(result.error?.code).toBe('UNKNOWN_TOOL')
    // The name is free again.
    ctx.tools.register(echoTool)
    expect(ctx.tools.schemas().map((s) => s.name)).toEqual(['echo'])
  })

  test('TL-1 disposing the registering plugin removes its tools (ctx.tools.register with inject)', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(named('kept'))
    const fiber = ctx.plugin({
      name: 'provider',
      inject: ['tools'],
      apply(inner: Context) {
        inner.tools.register(named('alpha'))
        inner.tools.register(named('beta'))
      },
    })
    await fiber
    expect(ctx.tools.schemas().map((s) => s.name)).toEqual(['alpha', 'beta', 'kept'])
    await fiber.dispose()
    expect(ctx.tools.schemas().map((s) => s.name)).toEqual(['kept'])
    expect((await ctx.tools.execute(call('alpha'))).error?.code).toBe('UNKNOWN_TOOL')
  })

  test('TL-1 registerTool ties the tool to the calling plugin without inject', async () => {
    const ctx = await createToolsContext()
    const fiber = ctx.plugin({
      name: 'no-inject',
      apply(inner: Context) {
        registerTool(inner, named('gamma'))
      },
    })
    await fiber
    expect(ctx.tools.get('gamma')?.name).toBe('gamma')
    await fiber.dispose()
    expect(ctx.tools.get('gamma')).toBeUndefined()
  })

  test('TL-1 a duplicate name throws DUPLICATE_TOOL and leaves the first registration in place', async () => {
    const ctx = await createToolsContext()
    const first = named('dup')
    ctx.tools.register(first)
    const error = registrationError(() => ctx.tools.register(named('dup')))
    expect(error.code).toBe('DUPLICATE_TOOL')
    expect(error.toolName).toBe('dup')
    expect(ctx.tools.get('dup')).toBe(first)
  })

  test('TL-1 a duplicate registered by a plugin fails that plugin, not the registry', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(named('dup'))
    const fiber = ctx.plugin({
      name: 'clash',
      inject: ['tools'],
      apply: (inner: Context) => void inner.tools.register(named('dup')),
    })
    const outcome = await Promise.resolve(fiber).then(
      () => 'loaded',
      (error: unknown) => (error as ToolRegistrationError).code,
    )
    expect(outcome).toBe('DUPLICATE_TOOL')
    expect(ctx.tools.schemas().map((s) => s.name)).toEqual(['dup'])
  })

  test('TL-1 a bad name throws INVALID_TOOL_NAME', async () => {
    const ctx = await createToolsContext()
    for (const name of ['Read', '1x', 'has-dash', '', `a${'b'.repeat(64)}`]) {
      const def = { ...named('ok'), name }
      expect(registrationError(() => ctx.tools.register(def)).code).toBe('INVALID_TOOL_NAME')
    }
    expect(registrationError(() => named('Bad')).code).toBe('INVALID_TOOL_NAME')
    // 64 characters is the longest legal name.
    expect(() => ctx.tools.register({ ...named('ok'), name: `a${'b'.repeat(63)}` })).not.toThrow()
    expect(ctx.tools.schemas()).toHaveLength(1)
  })

  test('an MCP tool name keeps case and - (mcp__<server>__<tool>, at most 64); nothing else does', async () => {
    const ctx = await createToolsContext()
    for (const name of ['mcp__GitHub-x__createIssue', `mcp__${'a'.repeat(59)}`])
      expect(() => ctx.tools.register({ ...named('ok'), name })).not.toThrow()
    for (const name of ['mcp__a.b__c', `mcp__${'a'.repeat(60)}`, 'MCP__a__b', 'x__A-b'])
      expect(registrationError(() => ctx.tools.register({ ...named('ok'), name })).code).toBe(
        'INVALID_TOOL_NAME',
      )
  })

  test('alwaysAsk must be a boolean', async () => {
    const ctx = await createToolsContext()
    expect(
      registrationError(() => ctx.tools.register({ ...named('t'), alwaysAsk: 'yes' as never })).code,
    ).toBe('INVALID_TOOL_DEFINITION')
    expect(() => ctx.tools.register({ ...named('t'), alwaysAsk: true })).not.toThrow()
  })

  test('TL-1 a bad timeout or a missing execute throws INVALID_TOOL_DEFINITION', async () => {
    const ctx = await createToolsContext()
    for (const timeoutMs of [0, 1.5, -1, 2 ** 31]) {
      expect(registrationError(() => ctx.tools.register({ ...named('t'), timeoutMs })).code).toBe(
        'INVALID_TOOL_DEFINITION',
      )
    }
    const noExecute = { ...named('t'), execute: undefined } as unknown as ToolDefinition
    expect(registrationError(() => ctx.tools.register(noExecute)).code).toBe('INVALID_TOOL_DEFINITION')
  })
})

describe('TL-2 wire list', () => {
  test('TL-2 schemas() is sorted by name in code-unit order whatever the registration order', async () => {
    const names = ['zeta', 'alpha', 'a_b', 'a1', 'beta', 'a']
    const a = await createToolsContext()
    const b = await createToolsContext()
    for (const name of names) a.tools.register(named(name))
    for (const name of [...names].reverse()) b.tools.register(named(name))
    const expected = ['a', 'a1', 'a_b', 'alpha', 'beta', 'zeta']
    expect(a.tools.schemas().map((s) => s.name)).toEqual(expected)
    expect(JSON.stringify(a.tools.schemas())).toBe(JSON.stringify(b.tools.schemas()))
  })

  test('TL-2 each entry is {name, description, parameters} and the list is frozen and stable until a change', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    const first = ctx.tools.schemas()
    expect(first).toEqual([
      {
        name: 'echo',
        description: 'Returns the given text unchanged.',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string', description: 'The text to return.' } },
          required: ['text'],
          additionalProperties: false,
        },
      },
    ])
    expect(Object.isFrozen(first)).toBe(true)
    expect(ctx.tools.schemas()).toBe(first)
    ctx.tools.register(named('more'))
    expect(ctx.tools.schemas()).not.toBe(first)
  })
})

describe('TL-19 mode config', () => {
  test('TL-19 mode defaults to native', async () => {
    expect(ToolsConfig.parse({})).toEqual({
      mode: 'native',
      abortGraceMs: 10_000,
      progressIntervalMs: 250,
      maxImageBytes: 3_932_160,
      maxImageLongEdge: 8000,
      approvalPreviewMaxChars: 20_000,
      dispatchSummaryMaxChars: 500,
      dispatchArgumentsMaxChars: 64_000,
    })
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    expect(ctx.tools.schemas()).toHaveLength(1)
  })

  test('TL-20 code and both without a code runtime: schemas() and the SDK section throw CodeModeUnavailableError', async () => {
    for (const mode of ['code', 'both'] as const) {
      const ctx = await createToolsContext({ mode })
      ctx.tools.register(echoTool)
      expect(() => ctx.tools.schemas()).toThrow(CodeModeUnavailableError)
      expect(() => ctx.tools.sdkSection()).toThrow(CodeModeUnavailableError)
      expect(() => ctx.tools.schemas()).toThrow(`tools mode "${mode}" needs a TypeScript code runtime`)
      // Execution does not depend on the mode.
      expect((await ctx.tools.execute(call('echo', { text: 'hi' }))).content).toEqual([
        { type: 'text', text: 'hi' },
      ])
    }
  })

  test('TL-19 an unknown mode is rejected at load, naming the field', async () => {
    const { Context } = await import('@tack/kernel')
    const ctx = new Context()
    await expect(ctx.plugin(ToolsPlugin, { mode: 'fast' as 'native' })).rejects.toThrow(
      /mode: must be one of 'native', 'code', 'both'/,
    )
    expect(() => ToolsConfig.parse({ mode: 'fast' }, 'tack.json')).toThrow(/tack\.json: mode/)
  })
})

describe('abortGraceMs config', () => {
  test('abortGraceMs default, configured and rejected values', async () => {
    expect(ToolsConfig.parse({}).abortGraceMs).toBe(10_000)
    expect(ToolsConfig.parse({ abortGraceMs: 0 }).abortGraceMs).toBe(0)
    expect(ToolsConfig.parse({ abortGraceMs: 600_000 }).abortGraceMs).toBe(600_000)
    for (const bad of [-1, 600_001, 1.5, '10']) {
      expect(() => ToolsConfig.parse({ abortGraceMs: bad })).toThrow(
        /abortGraceMs: must be an integer 0–600000/,
      )
    }
    const { Context } = await import('@tack/kernel')
    await expect(new Context().plugin(ToolsPlugin, { abortGraceMs: -5 })).rejects.toThrow(/abortGraceMs/)
  })

  test('approvalPreviewMaxChars default, configured and rejected values (docs/decisions/0300-approval-shows-the-change.md)', () => {
    expect(ToolsConfig.parse({}).approvalPreviewMaxChars).toBe(20_000)
    expect(ToolsConfig.parse({ approvalPreviewMaxChars: 0 }).approvalPreviewMaxChars).toBe(0)
    expect(ToolsConfig.parse({ approvalPreviewMaxChars: 500 }).approvalPreviewMaxChars).toBe(500)
    for (const bad of [-1, 1_000_001, 2.5, '10']) {
      expect(() => ToolsConfig.parse({ approvalPreviewMaxChars: bad })).toThrow(/approvalPreviewMaxChars/)
    }
  })

  test('progressIntervalMs default, configured and rejected values', () => {
    expect(ToolsConfig.parse({}).progressIntervalMs).toBe(250)
    expect(ToolsConfig.parse({ progressIntervalMs: 0 }).progressIntervalMs).toBe(0)
    for (const bad of [-1, 600_001, 2.5]) {
      expect(() => ToolsConfig.parse({ progressIntervalMs: bad })).toThrow(
        /progressIntervalMs: must be an integer 0–600000/,
      )
    }
  })
})
