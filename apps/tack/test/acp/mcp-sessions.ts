// What the ACP tests of MCP share: the reference server's entry, a session with the editor's MCP servers,
// a text prompt, and the tool names each request to the scripted model offered.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type McpServer, methods } from '@agentclientprotocol/sdk'
import { type AcpChild, scriptPath } from './client.ts'

const require = createRequire(import.meta.url)

/** @modelcontextprotocol/server-everything's entry, run with `stdio`. */
export const everythingBin = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
)

/** `session/new` in the box's workspace with the editor's `mcpServers`; its session id. */
export const newSession = async (acp: AcpChild, mcpServers: McpServer[]) =>
  (await acp.connection.agent.request(methods.agent.session.new, { cwd: acp.box.workspace, mcpServers }))
    .sessionId

export const prompt = (acp: AcpChild, sessionId: string, text: string) =>
  acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] })

/** The tool names of each request the scripted model got, in order. */
export async function toolsOfRequests(acp: AcpChild): Promise<string[][]> {
  const lines = (await readFile(`${scriptPath(acp.box)}.requests.jsonl`, 'utf8')).trim().split('\n')
  return lines.map((line) =>
    ((JSON.parse(line) as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name),
  )
}
