// Servers started for some agents only (startServers with an audience): what an ACP session does with
// the servers its editor names (docs/decisions/0232-acp-mcp-servers.md). The tools reach the audience
// only, a name the configured servers already use is suffixed, and closing the set ends the process.
import { SystemPromptService } from '@tack/agent'
import { memorySession } from '@tack/session/testing'
import { callTool, createToolsContext, stubAgent } from '@tack/tools/testing'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { McpConfig } from '../src/config.ts'
import { startServers } from '../src/server-set.ts'
import { alive, fixture, mcpContext, textOf } from './helpers.ts'

const agent = (id: string) => stubAgent(memorySession(process.cwd(), id))

/** `name` called with `args` by `who`. */
const callAs = (ctx: Context, who: ReturnType<typeof agent>, name: string, args: unknown) =>
  ctx.tools.execute({
    callId: `c-${who.id}-${name}`,
    name,
    rawArguments: JSON.stringify(args),
    cwd: process.cwd(),
    signal: new AbortController().signal,
    agent: who,
  })

describe('a server set for an audience', () => {
  it('offers its tools to the audience only, and close ends the server and removes its tools', async () => {
    const ctx = await createToolsContext()
    const mine = agent('mine')
    const other = agent('other')
    const set = startServers(ctx, {
      config: McpConfig.parse({}),
      servers: { fx: fixture() },
      audience: (a) => a === mine,
    })
    await set.ready
    expect(ctx.tools.schemas(mine).map((s) => s.name)).toContain('mcp__fx__pid')
    expect(ctx.tools.schemas(other).map((s) => s.name)).not.toContain('mcp__fx__pid')
    const pid = set.pids().fx as number
    expect(alive(pid)).toBe(true)
    const call = (who: typeof mine) => callAs(ctx, who, 'mcp__fx__pid', {})
    expect(textOf(await call(mine))).toBe(String(pid))
    expect((await call(other)).error?.code).toBe('UNKNOWN_TOOL')
    await set.close()
    expect(alive(pid)).toBe(false)
    expect(ctx.tools.schemas(mine).map((s) => s.name)).not.toContain('mcp__fx__pid')
  }, 30_000)

  it('a name a configured server already uses gets a suffix for the audience', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture() } })
    const mine = agent('mine')
    const set = startServers(ctx, {
      config: McpConfig.parse({}),
      servers: { fx: fixture() },
      audience: (a) => a === mine,
    })
    await set.ready
    const own = ctx.tools.schemas(mine).filter((s) => s.name.startsWith('mcp__fx__pid'))
    expect(own).toHaveLength(2)
    expect(textOf(await callTool(ctx, 'mcp__fx__pid', {}))).toMatch(/^\d+$/)
    await set.close()
  }, 30_000)

  it("its servers' instructions reach the audience's system prompt only, until it closes", async () => {
    const ctx = await createToolsContext()
    const prompt = new SystemPromptService()
    ctx.provide('systemPrompt', prompt)
    const mine = agent('mine')
    const set = startServers(ctx, {
      config: McpConfig.parse({}),
      servers: { fx: fixture('--instructions', 'For my session only.') },
      audience: (a) => a === mine,
    })
    await set.ready
    expect(prompt.assemble(mine)).toContain('## fx\nFor my session only.')
    expect(prompt.assemble(agent('other'))).not.toContain('For my session only.')
    expect(prompt.assemble()).not.toContain('For my session only.')
    await set.close()
    expect(prompt.assemble(mine)).not.toContain('For my session only.')
  }, 30_000)

  it('deferral is counted per set: past deferAbove the audience gets its own search, which loads its tools for it', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture() }, deferAbove: 0 })
    const mine = agent('mine')
    const other = agent('other')
    const set = startServers(ctx, {
      config: McpConfig.parse({ deferAbove: 0 }),
      servers: { own: fixture() },
      audience: (a) => a === mine,
    })
    await set.ready
    const names = (who: typeof mine) => ctx.tools.schemas(who).map((s) => s.name)
    expect(names(mine)).toEqual(['mcp_session_tool_search', 'mcp_tool_search'])
    expect(names(other)).toEqual(['mcp_tool_search'])
    const call = (name: string, args: unknown) => callAs(ctx, mine, name, args)
    expect((await call('mcp__own__pid', {})).error?.code).toBe('UNKNOWN_TOOL')
    expect(textOf(await call('mcp_session_tool_search', { query: 'mcp__own__pid' }))).toContain(
      'mcp__own__pid',
    )
    expect(names(mine)).toContain('mcp__own__pid')
    expect(names(mine)).not.toContain('mcp__fx__pid')
    expect(textOf(await call('mcp__own__pid', {}))).toBe(String(set.pids().own))
    await set.close()
    expect(names(mine)).toEqual(['mcp_tool_search'])
  }, 30_000)
})
