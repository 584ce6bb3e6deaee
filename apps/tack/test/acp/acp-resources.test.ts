// 55-mcp.md M10 and M12 through the real `tack acp` process and the ACP SDK's client: a `resource_link`
// whose URI an MCP server of the session offers (here the editor's own server-everything,
// docs/decisions/0232-acp-mcp-servers.md) is read through that server and given to the model like an
// embedded resource; a link no server offers, and a `file:` link to no file, stay references as before
// (a link to a workspace file is attached: acp-file-mentions.test.ts); an embedded resource's text is used as given;
// an `@everything:<uri>` mention in the prompt's text reaches the session's own server too
// (docs/decisions/0245-mcp-resource-mentions.md).
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type ContentBlock, type McpServer, methods } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { type AcpChild, scriptPath, withAcp } from './client.ts'

const require = createRequire(import.meta.url)
const everythingDir = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'))
const everything: McpServer = {
  name: 'everything',
  command: process.execPath,
  args: [join(everythingDir, 'dist', 'index.js'), 'stdio'],
  env: [],
}
const DOCUMENT = 'demo://resource/static/document/features.md'

/** The messages of each request the scripted model got, as JSON text. */
async function requests(acp: AcpChild): Promise<string[]> {
  const lines = (await readFile(`${scriptPath(acp.box)}.requests.jsonl`, 'utf8')).trim().split('\n')
  return lines.map((line) => JSON.stringify((JSON.parse(line) as { messages: unknown }).messages))
}

async function promptIn(acp: AcpChild, prompt: ContentBlock[]) {
  const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
    cwd: acp.box.workspace,
    mcpServers: [everything],
  })
  return acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt })
}

test('55-mcp.md M10: initialize advertises embedded context, which tack uses as given', async () => {
  await withAcp({ script: [{ kind: 'text', text: 'read' }] }, async (acp) => {
    const init = await acp.connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    })
    expect(init.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true)
    const response = await promptIn(acp, [
      { type: 'text', text: 'look at this' },
      { type: 'resource', resource: { uri: 'memo://note', text: 'the note as the editor had it' } },
    ])
    expect(response.stopReason).toBe('end_turn')
    const [sent] = await requests(acp)
    expect(sent).toContain('<resource uri=\\"memo://note\\">\\nthe note as the editor had it\\n</resource>')
  })
})

test("55-mcp.md M10: a resource link of the session's MCP server is read through it; others stay links", async () => {
  const doc = await readFile(join(everythingDir, 'dist', 'docs', 'features.md'), 'utf8')
  const heading = doc.split('\n')[0] as string
  await withAcp({ script: [{ kind: 'text', text: 'read' }] }, async (acp) => {
    const response = await promptIn(acp, [
      { type: 'text', text: 'compare these' },
      { type: 'resource_link', name: 'features.md', uri: DOCUMENT },
      { type: 'resource_link', name: 'nobody', uri: 'demo://nobody/offers/this' },
      { type: 'resource_link', name: 'main.ts', uri: `file://${acp.box.workspace}/main.ts` },
    ])
    expect(response.stopReason).toBe('end_turn')
    const [sent] = await requests(acp)
    expect(sent).toContain(`<resource uri=\\"${DOCUMENT}\\">\\n${JSON.stringify(heading).slice(1, -1)}`)
    expect(sent).not.toContain(`[features.md](${DOCUMENT})`)
    expect(sent).toContain('[nobody](demo://nobody/offers/this)')
    expect(sent).toContain(`[main.ts](file://${acp.box.workspace}/main.ts)`)
    expect(acp.stderr()).not.toContain('could not be read')
  })
})

test("55-mcp.md M10: an @server:uri mention in an ACP prompt reads the session's own server", async () => {
  await withAcp({ script: [{ kind: 'text', text: 'read' }] }, async (acp) => {
    const response = await promptIn(acp, [
      { type: 'text', text: 'what does @everything:demo://resource/dynamic/text/5 say?' },
    ])
    expect(response.stopReason).toBe('end_turn')
    const [sent] = await requests(acp)
    expect(sent).toContain('what does @everything:demo://resource/dynamic/text/5 say?')
    expect(sent).toContain('Resource 5: This is a plaintext resource')
  })
})
