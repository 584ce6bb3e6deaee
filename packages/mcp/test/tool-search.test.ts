// Many MCP tools (spec 55-mcp.md M11): past `deferAbove`, the request carries `mcp_tool_search` and
// none of the MCP tools; a search loads what it found for the agent (logged as `tools/loaded`), so the
// next request carries it and it can be called; a resumed session sends the same tools.
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import { CodeRuntimePlugin } from '@tack/code-runtime'
import { expect, it } from 'vitest'
import { McpPlugin } from '../src/plugin.ts'
import { fixture, mcpContext } from './helpers.ts'

const user = (content: string) => ({ content, source: { kind: 'user' as const } })

it('past deferAbove: the search tool up front, a found tool on the next request and callable, the same tools after a resume', async () => {
  const t = await createTestAgent({
    script: [
      toolCalls([{ name: 'mcp__fx__many_07', args: { n: 1 } }]),
      toolCalls([{ name: 'mcp_tool_search', args: { query: 'many_07' } }]),
      toolCalls([{ name: 'mcp__fx__many_07', args: { n: 2 } }]),
      text('done'),
      text('after resume'),
    ],
    plugins: [{ plugin: McpPlugin, config: { servers: { fx: fixture('--many', '50') }, deferAbove: 10 } }],
  })
  try {
    await t.agent.send(user('go'))
    const names = t.model.requests.map((request) => (request.tools ?? []).map((tool) => tool.name))
    // Request 1: the search tool, none of the 61 MCP tools; a call to one not loaded is an unknown tool.
    expect(names[0]).toContain('mcp_tool_search')
    expect(names[0]?.filter((name) => name.startsWith('mcp__'))).toEqual([])
    const results = t.events().filter((e) => e.type === 'tool/result')
    expect(JSON.stringify(results[0]?.data)).toContain('UNKNOWN_TOOL')
    // Request 2 is unchanged by the failed call; the search's result names and describes the tool.
    expect(names[1]).toEqual(names[0])
    const searched = JSON.stringify(results[1]?.data)
    expect(searched).toContain('mcp__fx__many_07')
    expect(searched).toContain('Counts many_07 things')
    expect(searched).toContain('input_schema')
    // Request 3 carries it, and the call succeeds.
    expect(names[2]).toEqual([...(names[0] ?? []), 'mcp__fx__many_07'].sort())
    expect(JSON.stringify(results[2]?.data)).toContain('many_07(2)')
    expect(names[3]).toEqual(names[2])
    const loaded = t.events().filter((e) => (e.type as string) === 'tools/loaded')
    expect(loaded.map((e) => e.data)).toEqual([{ names: ['mcp__fx__many_07'] }])
    const loadedAt = loaded[0]?.seq ?? Number.POSITIVE_INFINITY
    // The request header recorded the change once, when the tool was loaded (a snapshot: the tool sorts
    // before mcp_tool_search, and a delta only appends — request-header.ts records such a change whole).
    const headers = t.events().filter((e) => e.type.startsWith('request/header'))
    expect(headers).toHaveLength(2)
    expect(JSON.stringify(headers[0]?.data)).not.toContain('mcp__fx__')
    expect(JSON.stringify(headers[1]?.data)).toContain('"name":"mcp__fx__many_07"')
    expect(headers[1]?.seq).toBeGreaterThan(loadedAt)

    const id = t.agent.session.id
    await t.handle.dispose()
    const resumed = await t.ctx.agents.resume(id)
    try {
      await resumed.agent.send(user('again'))
      const last = t.model.requests.at(-1)
      expect((last?.tools ?? []).map((tool) => tool.name)).toEqual(names[3])
    } finally {
      await resumed.dispose()
    }
  } finally {
    await t.dispose()
    t.ctx.registry.delete(McpPlugin as never) // ends the server
  }
}, 30_000)

it('at or below deferAbove (default 40) every MCP tool is sent and there is no search tool; deferAbove 0 defers all', async () => {
  const plain = await mcpContext({ servers: { fx: fixture() } })
  const sent = plain.ctx.tools.schemas().map((tool) => tool.name)
  expect(sent).toContain('mcp__fx__pid')
  expect(sent).not.toContain('mcp_tool_search')
  const all = await mcpContext({ servers: { fx: fixture() }, deferAbove: 0 })
  expect(all.ctx.tools.schemas().map((tool) => tool.name)).toEqual(['mcp_tool_search'])
  // Still registered and searchable: only what is offered changed.
  expect(all.ctx.tools.get('mcp__fx__pid')?.deferred).toBe(true)
}, 30_000)

it('in Code Mode a deferred tool joins the SDK section after a search, and the next program calls it', async () => {
  const search = "return await tools.mcp_tool_search({ query: 'huge' })"
  const use = 'return await tools.mcp.fx.huge({ bytes: 2 })'
  const t = await createTestAgent({
    script: [
      toolCalls([{ name: 'run_code', args: { code: search } }]),
      toolCalls([{ name: 'run_code', args: { code: use } }]),
      text('done'),
    ],
    config: { tools: { mode: 'code' } },
    plugins: [
      { plugin: CodeRuntimePlugin, config: {} },
      { plugin: McpPlugin, config: { servers: { fx: fixture() }, deferAbove: 0 } },
    ],
  })
  try {
    await t.agent.send(user('go'))
    const systems = t.model.requests.map((request) => request.system ?? '')
    expect(systems[0]).toContain('mcp_tool_search(args')
    expect(systems[0]).not.toContain('huge(args')
    expect(systems[1]).toContain('      huge(args')
    const results = t.events().filter((e) => e.type === 'tool/result')
    expect(JSON.stringify(results[1]?.data)).toContain('\\"xx\\"')
  } finally {
    await t.dispose()
    t.ctx.registry.delete(McpPlugin as never) // ends the server
  }
}, 30_000)
