// 55-mcp.md M12 through the real `tack acp` process and the ACP SDK's client: the MCP servers an editor
// names in `session/new` are connected for that session only (docs/decisions/0232-acp-mcp-servers.md).
// The reference server (@modelcontextprotocol/server-everything) runs over stdio; the model is scripted.
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type McpServer, methods } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { sandbox } from '../helpers.ts'
import { startAcp, until, updatesOf, withAcp } from './client.ts'
import { everythingBin, newSession, prompt, toolsOfRequests } from './mcp-sessions.ts'

const ECHO = 'mcp__everything__echo'
const echoCall = { kind: 'tool-calls', calls: [{ name: ECHO, args: { message: 'from the editor' } }] }

/** server-everything as an editor names it, its process marked by an environment variable. */
function everything(marker: string): McpServer {
  return {
    name: 'everything',
    command: process.execPath,
    args: [everythingBin, 'stdio'],
    env: [{ name: 'TACK_ACP_MCP_MARKER', value: marker }],
  }
}

/** Whether a process started with `TACK_ACP_MCP_MARKER=marker` still runs (found through /proc). */
const running = (marker: string) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .includes(`TACK_ACP_MCP_MARKER=${marker}`)
      } catch {
        return false
      }
    })

test('55-mcp.md M12: initialize advertises the MCP transports tack connects, and session/close', async () => {
  await withAcp({}, async (acp) => {
    const init = await acp.connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    })
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true })
    expect(init.agentCapabilities?.sessionCapabilities?.close).toEqual({})
  })
})

test("55-mcp.md M12: the editor's stdio server serves its session only, and session/close ends its process", async () => {
  const marker = randomUUID()
  await withAcp(
    {
      args: ['--permission-mode', 'yolo'],
      script: [
        echoCall,
        { kind: 'text', text: 'echoed' },
        echoCall,
        { kind: 'text', text: 'no such tool here' },
      ],
    },
    async (acp) => {
      const withServer = await newSession(acp, [everything(marker)])
      const without = await newSession(acp, [])
      expect(running(marker)).toBe(true)

      expect((await prompt(acp, withServer, 'echo it')).stopReason).toBe('end_turn')
      const echoed = updatesOf(acp, 'tool_call_update', withServer).find((u) => u.status === 'completed')
      expect(JSON.stringify(echoed?.content)).toContain('Echo: from the editor')
      // Its card is drawn from the session's own tool: read-only by the server's annotations.
      expect(updatesOf(acp, 'tool_call', withServer)[0]).toMatchObject({ kind: 'read' })

      // The other session is neither offered the tool nor able to call it.
      expect((await prompt(acp, without, 'echo it too')).stopReason).toBe('end_turn')
      const refused = updatesOf(acp, 'tool_call_update', without).find((u) => u.status !== 'in_progress')
      expect(refused?.status).toBe('failed')
      expect(JSON.stringify(refused?.content)).toContain(ECHO)
      expect(JSON.stringify(refused?.content)).not.toContain('Echo: from the editor')
      const tools = await toolsOfRequests(acp)
      expect(tools[0]).toContain(ECHO)
      expect(tools[2]).not.toContain(ECHO)
      expect(tools[2]?.length).toBeGreaterThan(0)

      await acp.connection.agent.request(methods.agent.session.close, { sessionId: withServer })
      await until(() => !running(marker), 'the closed session’s MCP server to exit')
    },
  )
})

test("55-mcp.md M12: the editor's server ends when tack acp ends, and is started again for session/load", async () => {
  const first = randomUUID()
  const acp = await startAcp({})
  const sessionId = await newSession(acp, [everything(first)])
  expect(running(first)).toBe(true)
  expect(await acp.close()).toBe(0)
  expect(running(first)).toBe(false)

  const second = randomUUID()
  await withAcp({ box: acp.box }, async (again) => {
    await again.connection.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: again.box.workspace,
      mcpServers: [everything(second)],
    })
    expect(running(second)).toBe(true)
  })
  expect(running(second)).toBe(false)
})

test('55-mcp.md M2, M12: session/new answers once the configured servers are ready, so its first commands and request have them', async () => {
  const box = await sandbox()
  // The user's own config names the server: the folder's boot starts it, and does not wait for it
  // (docs/decisions/0240-mcp-early-start.md); session/new does.
  await mkdir(box.tackHome, { recursive: true })
  const server = { type: 'stdio', command: process.execPath, args: [everythingBin, 'stdio'] }
  await writeFile(
    join(box.tackHome, 'config.yml'),
    `plugins:\n  mcp:\n    servers: ${JSON.stringify({ configured: server })}\n`,
  )
  await withAcp({ box, script: [{ kind: 'text', text: 'hello' }] }, async (acp) => {
    const sessionId = await newSession(acp, [])
    await until(() => updatesOf(acp, 'available_commands_update', sessionId).length > 0, 'the commands')
    const first = updatesOf(acp, 'available_commands_update', sessionId)[0] as {
      availableCommands: Array<{ name: string }>
    }
    expect(first.availableCommands.map((c) => c.name)).toContain('mcp__configured__simple-prompt')
    expect((await prompt(acp, sessionId, 'hi')).stopReason).toBe('end_turn')
    expect((await toolsOfRequests(acp))[0]).toContain('mcp__configured__echo')
  })
})
