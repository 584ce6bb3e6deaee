// Tools registered for some agents only (`register(def, audience)`): an ACP session's own MCP servers
// (docs/decisions/0232-acp-mcp-servers.md). Only the audience is offered the tool and may call it.
import { describe, expect, test } from 'vitest'
import { defineTool, ToolRegistrationError, type ToolAgent, type ToolDefinition } from '../src/index.ts'
import { agentWith, call, createToolsContext, newSession, thrownBy } from './support.ts'

const named = (name: string, answer = name): ToolDefinition =>
  defineTool({
    name,
    description: `the ${name} tool`,
    parameters: { type: 'object', properties: {} },
    execute: () => answer,
  })

const textOf = (result: { content: ReadonlyArray<{ type: string; text?: string }> }) =>
  result.content.map((c) => c.text ?? '').join('')

describe('tools for an audience', () => {
  test('only the audience is offered the tool and may call it; its disposer removes it', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(named('shared'))
    const mine = agentWith(newSession())
    const other = agentWith(newSession())
    const dispose = ctx.tools.register(named('own'), (agent) => agent === mine)

    expect(ctx.tools.schemas(mine).map((s) => s.name)).toEqual(['own', 'shared'])
    expect(ctx.tools.schemas(other).map((s) => s.name)).toEqual(['shared'])
    expect(ctx.tools.schemas().map((s) => s.name)).toEqual(['shared'])
    expect(ctx.tools.get('own', mine)?.name).toBe('own')
    expect(ctx.tools.get('own')).toBeUndefined()

    expect(textOf(await ctx.tools.execute(call('own', {}, { agent: mine })))).toBe('own')
    expect((await ctx.tools.execute(call('own', {}, { agent: other }))).error?.code).toBe('UNKNOWN_TOOL')
    expect((await ctx.tools.execute(call('own'))).error?.code).toBe('UNKNOWN_TOOL')

    dispose()
    expect(ctx.tools.schemas(mine).map((s) => s.name)).toEqual(['shared'])
    expect((await ctx.tools.execute(call('own', {}, { agent: mine }))).error?.code).toBe('UNKNOWN_TOOL')
  })

  test('two audiences may each have a tool of one name; a name every agent sees is refused', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(named('shared'))
    const a = agentWith(newSession())
    const b = agentWith(newSession())
    const only = (agent: ToolAgent) => (seen: ToolAgent) => seen === agent
    ctx.tools.register(named('mcp__x__echo', 'from a'), only(a))
    ctx.tools.register(named('mcp__x__echo', 'from b'), only(b))
    expect(textOf(await ctx.tools.execute(call('mcp__x__echo', {}, { agent: a })))).toBe('from a')
    expect(textOf(await ctx.tools.execute(call('mcp__x__echo', {}, { agent: b })))).toBe('from b')
    const error = thrownBy(ToolRegistrationError, () => ctx.tools.register(named('shared'), only(a)))
    expect(error.code).toBe('DUPLICATE_TOOL')
  })
})
