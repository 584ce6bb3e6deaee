// An editor's MCP server whose name has `__` (which would let a rule for `mcp__ever__*` reach its tools)
// or is empty is not used: one warning line, and the session goes on with the others
// (docs/decisions/0260-mcp-hostile-sources.md), through the real `tack acp` process.
import type { McpServer } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { withAcp } from './client.ts'
import { everythingBin, newSession, prompt, toolsOfRequests } from './mcp-sessions.ts'

const everything = (name: string): McpServer => ({
  name,
  command: process.execPath,
  args: [everythingBin, 'stdio'],
  env: [],
})

test('names with __ or empty are refused with the rule; the session keeps the others', async () => {
  await withAcp({ script: [{ kind: 'text', text: 'hello' }] }, async (acp) => {
    const sessionId = await newSession(acp, [everything('ever'), everything('ever__x'), everything('')])
    expect((await prompt(acp, sessionId, 'hi')).stopReason).toBe('end_turn')
    const tools = (await toolsOfRequests(acp))[0] ?? []
    expect(tools).toContain('mcp__ever__echo')
    expect(tools.filter((t) => t.startsWith('mcp__ever__x__'))).toEqual([])
    expect(acp.stderr()).toContain(
      'tack acp: MCP server "ever__x" from the client is not used: a server name must not contain "__"',
    )
    expect(acp.stderr()).toContain(
      'tack acp: MCP server "" from the client is not used: a server name must not be empty',
    )
  })
}, 60_000)
