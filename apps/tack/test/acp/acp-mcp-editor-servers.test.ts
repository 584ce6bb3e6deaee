// 55-mcp.md M11 and M12 through the real `tack acp` process: an editor's Streamable HTTP server on
// loopback (the SDK's own server transport, with the test's fixture tools) is connected for its session
// with the editor's headers on every request, and its tools are called; an editor's stdio server with
// more tools than `plugins.mcp.deferAbove` is offered through that session's own `mcp_tool_search`
// (docs/decisions/0232-acp-mcp-servers.md, 0235-deferred-tools.md); a server's progress notifications
// reach the editor as in_progress updates of the call; a Claude Code hook sees an editor's MCP tool in the
// shape it sees a configured one (docs/decisions/0250-mcp-approval-prompt.md).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { startHttpMcpServer } from '../../../../packages/mcp/test/fixtures/http-server.ts'
import { recordClaudeHook } from '../claude-hook-recorder.ts'
import { sandbox } from '../helpers.ts'
import { updatesOf, withAcp } from './client.ts'
import { everythingBin, newSession, prompt, toolsOfRequests } from './mcp-sessions.ts'

const fixtureServer = fileURLToPath(
  new URL('../../../../packages/mcp/test/fixtures/server.ts', import.meta.url),
)

test("55-mcp.md M12: an editor's http server is connected for its session, with the editor's headers", async () => {
  const http = await startHttpMcpServer()
  const { url, headers: seen } = http
  try {
    await withAcp(
      {
        args: ['--permission-mode', 'yolo'],
        script: [
          { kind: 'tool-calls', calls: [{ name: 'mcp__web__huge', args: { bytes: 12 } }] },
          { kind: 'text', text: 'got it' },
        ],
      },
      async (acp) => {
        const sessionId = await newSession(acp, [
          { type: 'http', name: 'web', url, headers: [{ name: 'X-Editor-Token', value: 'from-zed' }] },
        ])
        expect((await prompt(acp, sessionId, 'call it')).stopReason).toBe('end_turn')
        const done = updatesOf(acp, 'tool_call_update', sessionId).find((u) => u.status === 'completed')
        expect(JSON.stringify(done?.content)).toContain('x'.repeat(12))
        expect((await toolsOfRequests(acp))[0]).toContain('mcp__web__huge')
        expect(seen.length).toBeGreaterThan(1)
        expect(seen.every((headers) => headers['x-editor-token'] === 'from-zed')).toBe(true)
      },
    )
  } finally {
    await http.close()
  }
})

test("55-mcp.md M11: an editor's server past deferAbove is offered through the session's own search tool, mcp_session_tool_search", async () => {
  const box = await sandbox()
  const config = join(box.root, 'defer.yml')
  await writeFile(config, 'plugins:\n  mcp:\n    deferAbove: 10\n')
  await withAcp(
    {
      box,
      args: ['--permission-mode', 'yolo', '--config', config],
      script: [
        { kind: 'tool-calls', calls: [{ name: 'mcp_session_tool_search', args: { query: 'many_07' } }] },
        {
          kind: 'tool-calls',
          calls: [
            { name: 'mcp__lots__many_07', args: { n: 3 } },
            { name: 'mcp__lots__many_7', args: { n: 3 } },
          ],
        },
        { kind: 'text', text: 'found and called' },
      ],
    },
    async (acp) => {
      const sessionId = await newSession(acp, [
        { name: 'lots', command: process.execPath, args: [fixtureServer, '--many', '30'], env: [] },
      ])
      expect((await prompt(acp, sessionId, 'find it')).stopReason).toBe('end_turn')
      const tools = await toolsOfRequests(acp)
      expect(tools[0]).toContain('mcp_session_tool_search')
      expect(tools[0]?.some((name) => name.startsWith('mcp__lots__'))).toBe(false)
      expect(tools[1]).toContain('mcp__lots__many_07')
      const updates = updatesOf(acp, 'tool_call_update', sessionId)
      const called = updates.filter((u) => u.status === 'completed')
      expect(JSON.stringify(called.at(-1)?.content)).toContain('many_07(3)')
      // A wrong name is answered with the tools this session can call, its own among them.
      const wrong = JSON.stringify(updates.find((u) => u.status === 'failed')?.content)
      expect(wrong).toContain('Unknown tool')
      expect(wrong).toContain('mcp_session_tool_search')
      expect(wrong).toContain('mcp__lots__many_07')
    },
  )
})

test("an MCP server's progress reaches the editor as in_progress updates of the call, before its result", async () => {
  await withAcp(
    {
      args: ['--permission-mode', 'yolo'],
      script: [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'mcp__everything__trigger-long-running-operation', args: { duration: 1.2, steps: 3 } },
          ],
        },
        { kind: 'text', text: 'finished' },
      ],
    },
    async (acp) => {
      const sessionId = await newSession(acp, [
        { name: 'everything', command: process.execPath, args: [everythingBin, 'stdio'], env: [] },
      ])
      expect((await prompt(acp, sessionId, 'run it')).stopReason).toBe('end_turn')
      const updates = updatesOf(acp, 'tool_call_update', sessionId)
      const texts = updates.map((u) => JSON.stringify(u.content ?? []))
      const first = texts.findIndex((t) => t.includes('"1/3"'))
      const done = updates.findIndex((u) => u.status === 'completed')
      expect(first).toBeGreaterThanOrEqual(0)
      expect(updates[first]?.status).toBe('in_progress')
      expect(first).toBeLessThan(done)
      expect(texts[done]).toContain('Long running operation completed')
    },
  )
})

test("55-mcp.md M8: a Claude Code hook sees an editor's MCP tool as it sees a configured one", async () => {
  const box = await sandbox()
  const seen = await recordClaudeHook(box, 'PostToolUse', 'mcp__own__.*')
  await withAcp(
    {
      box,
      args: ['--permission-mode', 'yolo'],
      script: [
        { kind: 'tool-calls', calls: [{ name: 'mcp__own__kinds', args: {} }] },
        { kind: 'text', text: 'seen' },
      ],
    },
    async (acp) => {
      const sessionId = await newSession(acp, [
        { name: 'own', command: process.execPath, args: [fixtureServer], env: [] },
      ])
      expect((await prompt(acp, sessionId, 'call it')).stopReason).toBe('end_turn')
      const input = JSON.parse(await readFile(seen, 'utf8')) as { tool_name: string; tool_response: unknown }
      expect(input.tool_name).toBe('mcp__own__kinds')
      // Claude Code's shape for an MCP tool: the server's content blocks, not tack's generic {output, isError}.
      expect(Array.isArray(input.tool_response)).toBe(true)
      expect(input.tool_response).toContainEqual({ type: 'text', text: 'plain' })
    },
  )
})

test("55-mcp.md M3: an editor's MCP tools are judged by their annotations — destructive asks, read-only runs", async () => {
  await withAcp(
    {
      args: ['--permission-mode', 'workspace-write'],
      script: [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'mcp__own__pid', args: {} },
            { name: 'mcp__own__wipe', args: {} },
          ],
        },
        { kind: 'text', text: 'judged' },
      ],
    },
    async (acp) => {
      const sessionId = await newSession(acp, [
        { name: 'own', command: process.execPath, args: [fixtureServer], env: [] },
      ])
      expect((await prompt(acp, sessionId, 'go')).stopReason).toBe('end_turn')
      // One question, for the destructive tool; the client's default answer rejects it.
      expect(acp.permissionRequests).toHaveLength(1)
      expect(acp.permissionRequests[0]).toMatchObject({
        toolCall: { toolCallId: 'call_2', title: 'own: wipe' },
      })
      const updates = updatesOf(acp, 'tool_call_update', sessionId)
      expect(updates.filter((u) => u.status === 'completed')).toHaveLength(1)
      expect(JSON.stringify(updates.find((u) => u.status === 'failed')?.content)).not.toContain('wiped')
    },
  )
})
