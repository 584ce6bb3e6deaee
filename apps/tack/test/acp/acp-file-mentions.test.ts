// 85-skills-and-commands.md I1 through the real `tack acp` process and the ACP SDK's client
// (docs/decisions/0280-file-mentions.md): an editor's `resource_link` to a file of the session's folder
// is read as an `@path` mention is and given in the embedded resource's form, numbered as `read` shows
// it; a link to a file outside the folder stays a reference and stderr says why; an embedded file of the
// folder is shown numbered too, while other embedded resources stay as given; a text mention works as
// in `tack run`.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ContentBlock, methods } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { type AcpChild, scriptPath, withAcp } from './client.ts'

async function requests(acp: AcpChild): Promise<string[]> {
  const lines = (await readFile(`${scriptPath(acp.box)}.requests.jsonl`, 'utf8')).trim().split('\n')
  return lines.map((line) => JSON.stringify((JSON.parse(line) as { messages: unknown }).messages))
}

async function promptIn(acp: AcpChild, prompt: ContentBlock[]) {
  const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
    cwd: acp.box.workspace,
    mcpServers: [],
  })
  return acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt })
}

test('85-skills-and-commands.md I1: a file link of the session folder is attached as read shows it', async () => {
  await withAcp({ script: [{ kind: 'text', text: 'read' }] }, async (acp) => {
    const ws = acp.box.workspace
    await mkdir(join(ws, 'src'), { recursive: true })
    await writeFile(join(ws, 'src', 'main.ts'), 'export const one = 1\nexport const two = 2\n')
    await writeFile(join(acp.box.root, 'outside.txt'), 'not for the model\n')
    const response = await promptIn(acp, [
      { type: 'text', text: 'explain' },
      { type: 'resource_link', name: 'main.ts', uri: `file://${ws}/src/main.ts` },
      { type: 'resource_link', name: 'outside.txt', uri: `file://${acp.box.root}/outside.txt` },
      { type: 'resource_link', name: 'gone.ts', uri: `file://${ws}/gone.ts` },
      { type: 'resource', resource: { uri: `file://${ws}/src/draft.ts`, text: 'let unsaved = true\n' } },
      { type: 'resource', resource: { uri: 'memo://note', text: 'as given' } },
    ])
    expect(response.stopReason).toBe('end_turn')
    const [sent] = await requests(acp)
    expect(sent).toContain(
      `<resource uri=\\"file://${ws}/src/main.ts\\">\\n1\\texport const one = 1\\n2\\texport const two = 2\\n</resource>`,
    )
    expect(sent).toContain(`[outside.txt](file://${acp.box.root}/outside.txt)`)
    expect(sent).not.toContain('not for the model')
    expect(sent).toContain(`[gone.ts](file://${ws}/gone.ts)`)
    expect(sent).toContain(
      `<resource uri=\\"file://${ws}/src/draft.ts\\">\\n1\\tlet unsaved = true\\n</resource>`,
    )
    expect(sent).toContain('<resource uri=\\"memo://note\\">\\nas given\\n</resource>')
    const refused = acp
      .stderr()
      .split('\n')
      .filter((line) => line.includes('outside.txt'))
    expect(refused).toHaveLength(1)
    expect(refused[0]).toContain('is not attached: it is outside the workspace')
    expect(acp.stderr()).not.toContain('gone.ts')
  })
})

test('85-skills-and-commands.md I1: an @path mention in an ACP prompt is attached after it, once', async () => {
  await withAcp({ script: [{ kind: 'text', text: 'read' }] }, async (acp) => {
    await writeFile(join(acp.box.workspace, 'notes.md'), '# Notes\nremember the milk\n')
    const response = await promptIn(acp, [{ type: 'text', text: 'what is in @notes.md?' }])
    expect(response.stopReason).toBe('end_turn')
    const [sent] = await requests(acp)
    expect(sent).toContain('what is in @notes.md?')
    expect(sent.split('2\\tremember the milk')).toHaveLength(2)
    expect(sent).toContain('context source=\\"plugin:fs\\"')
  })
})
