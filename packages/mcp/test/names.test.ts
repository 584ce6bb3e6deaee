// Tool names as Claude Code gives them (spec 55-mcp.md M3), bounded and unclashed.
import { describe, expect, it } from 'vitest'
import { isToolName } from '@tack/tools'
import { mcpToolName, sanitizeServerName, unclashedName } from '../src/names.ts'
import { fixture, mcpContext } from './helpers.ts'

describe('MCP tool names', () => {
  it('keep case and -, and make every other character of the server name _', () => {
    expect(sanitizeServerName('my.server/v2 (beta)')).toBe('my_server_v2__beta_')
    expect(mcpToolName('GitHub-Enterprise', 'createIssue')).toBe('mcp__GitHub-Enterprise__createIssue')
    expect(mcpToolName('s', 'files.read/all')).toBe('mcp__s__files_read_all')
  })

  it('are bounded to 64 characters, stably and distinctly', () => {
    const long = mcpToolName(
      'a-very-long-server-name-for-testing',
      'and_an_even_longer_tool_name_that_goes_on',
    )
    expect(long).toHaveLength(64)
    expect(long).toBe(
      mcpToolName('a-very-long-server-name-for-testing', 'and_an_even_longer_tool_name_that_goes_on'),
    )
    expect(long).not.toBe(
      mcpToolName('a-very-long-server-name-for-testing', 'and_an_even_longer_tool_name_that_goes_of'),
    )
    expect(isToolName(long)).toBe(true)
  })

  it('a taken name gets a stable suffix', () => {
    const taken = new Set(['mcp__a_b__x'])
    const name = unclashedName('mcp__a_b__x', 'a.b', 'x', (n) => taken.has(n))
    expect(name).toMatch(/^mcp__a_b__x_[0-9a-f]{8}$/)
    expect(unclashedName('mcp__a_b__x', 'a.b', 'x', (n) => taken.has(n))).toBe(name)
  })

  it('two servers whose names sanitise alike: both registered, the clash reported in one line', async () => {
    const { ctx, warnings } = await mcpContext({ servers: { 'a.b': fixture(), a_b: fixture() } })
    const pids = ctx.tools.schemas().filter((s) => s.name.startsWith('mcp__a_b__pid'))
    expect(pids).toHaveLength(2)
    const clashes = warnings.filter((w) => w.includes('already taken, renamed'))
    expect(clashes).toHaveLength(1)
    expect(clashes[0]).toMatch(
      /tool name\(s\) already taken, renamed: mcp__a_b__\S+ → mcp__a_b__\S+_[0-9a-f]{8}, .*and \d+ more/,
    )
  }, 30_000)
})
