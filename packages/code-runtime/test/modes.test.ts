// TL-19 (modes), TL-20 (fail loudly), TL-21 (the SDK section) through the real agent loop.
import { createTestAgent, text } from '@tack/agent/testing'
import { CodeModeUnavailableError, defineTool, registerTool, setToolsMode } from '@tack/tools'
import { echoTool } from '@tack/tools/testing'
import { describe, expect, test } from 'vitest'
import { CodeRuntimePlugin } from '../src/index.ts'

const user = (content: string) => ({ content, source: { kind: 'user' as const } })

const searchTool = defineTool({
  name: 'search_docs',
  description: 'Searches the docs.\nReturns one hit per line.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for.' },
      limit: { type: 'integer', minimum: 1, default: 10 },
      scope: { enum: ['api', 'guide'] },
    },
    required: ['query'],
  },
  access: 'read',
  execute: ({ query }) => `hit for ${query}`,
})

async function agentIn(mode: 'native' | 'code' | 'both' | undefined, withRuntime = true) {
  return createTestAgent({
    script: [text('one'), text('two')],
    config: { tools: mode ? { mode } : {} },
    plugins: withRuntime ? [{ plugin: CodeRuntimePlugin, config: {} }] : [],
    setup: (ctx) => {
      ctx.tools.register(searchTool)
      ctx.tools.register(echoTool)
    },
  })
}

describe('TL-19 modes', () => {
  test('TL-19 native equals the no-setting request byte for byte; code sends only run_code; both sends both', async () => {
    const requests: Record<string, { tools: unknown; system: unknown }> = {}
    for (const mode of [undefined, 'native', 'code', 'both'] as const) {
      const t = await agentIn(mode)
      expect((await t.agent.send(user('hi'))).reason).toEqual({ kind: 'completed' })
      const request = t.model.requests[0]
      requests[mode ?? 'unset'] = { tools: request.tools, system: request.system }
      await t.dispose()
    }
    expect(JSON.stringify(requests.native)).toBe(JSON.stringify(requests.unset))
    const names = (mode: string) => (requests[mode].tools as Array<{ name: string }>).map((s) => s.name)
    expect(names('native')).toEqual(['echo', 'search_docs'])
    expect(names('code')).toEqual(['run_code'])
    expect(names('both')).toEqual(['echo', 'run_code', 'search_docs'])
    expect(requests.native.system ?? '').not.toContain('declare const tools')
    expect(requests.code.system).toContain('declare const tools')
    expect(requests.both.system).toBe(requests.code.system)
    // run_code's wire schema is its definition's, with the validator's `additionalProperties: false`.
    const runCode = (requests.code.tools as Array<{ name: string; parameters: { required: string[] } }>)[0]
    const probe = await agentIn('code')
    expect(runCode.parameters).toEqual({
      ...probe.ctx.tools.get('run_code')?.parameters,
      additionalProperties: false,
    })
    expect(runCode.parameters.required).toEqual(['code'])
    await probe.dispose()
  })
})

describe('TL-36 per-agent modes', () => {
  test('TL-36 an agent option overrides the registry mode, and a switch applies from the next request, logged as a tools delta', async () => {
    const t = await createTestAgent({
      script: [text('one'), text('two'), text('three')],
      plugins: [{ plugin: CodeRuntimePlugin, config: {} }],
      agentOptions: { toolsMode: 'code' },
      setup: (ctx) => ctx.tools.register(echoTool),
    })
    const names = (i: number) => (t.model.requests[i].tools ?? []).map((s) => s.name)
    await t.agent.send(user('first'))
    // The registry stays native (its default); this agent is in Code Mode.
    expect(t.ctx.tools.schemas().map((s) => s.name)).toEqual(['echo'])
    expect(names(0)).toEqual(['run_code'])
    expect(t.model.requests[0].system).toContain('declare const tools')
    setToolsMode(t.agent, 'native')
    await t.agent.send(user('second'))
    expect(names(1)).toEqual(['echo'])
    expect(t.model.requests[1].system ?? '').not.toContain('declare const tools')
    setToolsMode(t.agent, 'both')
    await t.agent.send(user('third'))
    expect(names(2)).toEqual(['echo', 'run_code'])
    const deltas = t.events().filter((e) => e.type === 'request/header-delta')
    expect(deltas.length).toBeGreaterThanOrEqual(2)
    expect(JSON.stringify(deltas)).toContain('run_code')
    expect(() => setToolsMode(t.agent, 'fast' as 'code')).toThrow(/unknown tools mode "fast"/)
    await t.dispose()
  })

  test('TL-36 run_code is an unknown tool for an agent in native mode, whatever the registry offers others', async () => {
    const t = await agentIn('code')
    setToolsMode(t.agent, 'native')
    const result = await t.ctx.tools.execute({
      callId: 'c1',
      name: 'run_code',
      rawArguments: JSON.stringify({ code: 'return 1' }),
      agent: t.agent,
      cwd: t.cwd,
      signal: new AbortController().signal,
    })
    expect(result.isError).toBe(true)
    expect(result.error?.code).toBe('UNKNOWN_TOOL')
    await t.dispose()
  })
})

describe('TL-20 fail loudly', () => {
  test('TL-20 code without a runtime fails each turn with CodeModeUnavailableError', async () => {
    const t = await agentIn('code', false)
    for (const prompt of ['first', 'second']) {
      const outcome = await t.agent.send(user(prompt))
      expect(outcome.reason).toMatchObject({
        kind: 'error',
        message: new CodeModeUnavailableError('code').message,
      })
    }
    expect(t.model.requests).toHaveLength(0)
    await t.dispose()
  })
})

describe('TL-21 SDK section', () => {
  test('TL-21 golden section; run_code is excluded', async () => {
    const t = await agentIn('code')
    const section = t.ctx.tools.sdkSection()
    await expect(section).toMatchFileSnapshot('goldens/sdk-section.md')
    expect(section).not.toContain('run_code(')
    // Byte-identical for an unchanged tool set, whatever the registration order.
    const other = await createTestAgent({
      config: { tools: { mode: 'code' } },
      plugins: [{ plugin: CodeRuntimePlugin, config: {} }],
      setup: (ctx) => {
        ctx.tools.register(echoTool)
        ctx.tools.register(searchTool)
      },
    })
    expect(other.ctx.tools.sdkSection()).toBe(section)
    await other.dispose()
    await t.dispose()
  })

  test('TL-21 a tool registered later appears in the next step; a plugin tool needs no edit to Code Mode', async () => {
    const t = await agentIn('code')
    await t.agent.send(user('first'))
    expect(t.model.requests[0].system).not.toContain('late_tool')
    await t.ctx.plugin((ctx) => {
      registerTool(
        ctx,
        defineTool({
          name: 'late_tool',
          description: 'Registered by a plugin after the first turn.',
          parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
          execute: () => 'late',
        }),
      )
    })
    await t.agent.send(user('second'))
    expect(t.model.requests[1].system).toContain(
      '  /**\n   * Registered by a plugin after the first turn.\n   *\n   * Access: write.\n   */\n  late_tool(args: {\n    n: number\n  }): Promise<string>',
    )
    await t.dispose()
  })
})
