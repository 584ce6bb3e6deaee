// 55-mcp.md M6 through the real `tack acp` and the ACP SDK's client (docs/decisions/0250-mcp-approval-prompt.md):
// a trusted folder's `.mcp.json` server waiting for approval is put to the editor as one
// `session/request_permission` after `session/new`, showing its command as written and its env values
// hidden. Approve records the approval (as `tack mcp approve`) and starts the server: the session's
// model calls its tool. Skip, and a cancelled answer, start nothing and record nothing; an untrusted folder
// is asked nothing. The server's shell leaves a marker file when it runs.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the .mcp.json syntax under test
import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { methods, type RequestPermissionResponse } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { runTack, type Sandbox, sandbox } from '../helpers.ts'
import { everythingBin } from '../mcp-everything.ts'
import { type AcpChild, until, updatesOf, withAcp } from './client.ts'

const SECRET = 'acp-project-token-321'
const ECHO = 'mcp__docs__echo'

/** A provider-style key the first test's server is sent through `${ACP_DEMO_TOKEN}` (docs/decisions/0265-mcp-secret-values.md). */
const KEY = 'acp-demo-token-value-654'

async function projectFolder(
  trusted: boolean,
  env: Record<string, string> = { TOKEN: SECRET },
): Promise<{ box: Sandbox; marker: string }> {
  const box = await sandbox()
  box.env.ACP_DEMO_TOKEN = KEY
  const marker = join(box.root, 'started')
  const script = `touch '${marker}'; exec '${process.execPath}' '${everythingBin}' stdio`
  await writeFile(
    join(box.workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { docs: { command: 'sh', args: ['-c', script], env } } }),
  )
  if (trusted)
    expect((await runTack(['trust', box.workspace], { env: box.env, cwd: box.workspace })).code).toBe(0)
  return { box, marker }
}

const newSession = async (acp: AcpChild) =>
  (await acp.connection.agent.request(methods.agent.session.new, { cwd: acp.box.workspace, mcpServers: [] }))
    .sessionId

const approvalsFile = (box: Sandbox) => join(box.tackHome, 'mcp-approvals.json')

/** Answers the approval question with `optionId` (or cancelled), any other question with reject-once. */
const answering =
  (answer: string | 'cancelled') =>
  (request: unknown): RequestPermissionResponse => {
    const id = (request as { toolCall: { toolCallId: string } }).toolCall.toolCallId
    if (!id.startsWith('mcp-approval-')) return { outcome: { outcome: 'selected', optionId: 'reject-once' } }
    return answer === 'cancelled'
      ? { outcome: { outcome: 'cancelled' } }
      : { outcome: { outcome: 'selected', optionId: answer } }
  }

test('55-mcp.md M6: the editor is asked once; approve records it and the server starts for the session', async () => {
  const { box, marker } = await projectFolder(true, { TOKEN: SECRET, LINK: '${ACP_DEMO_TOKEN}' })
  await withAcp(
    {
      box,
      args: ['-v', '--permission-mode', 'yolo'],
      permission: answering('approve'),
      script: [
        { kind: 'tool-calls', calls: [{ name: ECHO, args: { message: 'approved' } }] },
        { kind: 'text', text: 'done' },
      ],
    },
    async (acp) => {
      const sessionId = await newSession(acp)
      await until(
        () => acp.stderr().includes('MCP server docs from .mcp.json approved and started'),
        'the start',
        20_000,
      )
      expect(existsSync(marker)).toBe(true)
      expect(acp.permissionRequests).toHaveLength(1)
      const asked = JSON.stringify(acp.permissionRequests[0])
      expect(asked).toContain('Start MCP server docs from .mcp.json')
      expect(asked).toContain('(new): runs sh -c')
      expect(asked).toContain('env TOKEN=<hidden> LINK=${ACP_DEMO_TOKEN}')
      expect(asked).toContain('WARNING: sends your secret variables ACP_DEMO_TOKEN to this server')
      expect(asked).not.toContain(SECRET)
      expect(asked).not.toContain(KEY)
      expect(JSON.parse(readFileSync(approvalsFile(box), 'utf8')).workspaces).toBeDefined()

      const reply = await acp.connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'echo' }],
      })
      expect(reply.stopReason).toBe('end_turn')
      const done = updatesOf(acp, 'tool_call_update', sessionId).find((u) => u.status === 'completed')
      expect(JSON.stringify(done?.content)).toContain('Echo: approved')

      // a second session in the folder is not asked again
      await newSession(acp)
      await new Promise((r) => setTimeout(r, 300))
      expect(acp.permissionRequests).toHaveLength(1)
    },
  )
})

for (const answer of ['skip', 'cancelled'] as const) {
  test(`55-mcp.md M6: answered ${answer}, nothing starts and nothing is recorded`, async () => {
    const { box, marker } = await projectFolder(true)
    await withAcp({ box, permission: answering(answer) }, async (acp) => {
      await newSession(acp)
      await until(() => acp.permissionRequests.length === 1, 'the question')
      await new Promise((r) => setTimeout(r, 500))
      expect(existsSync(marker)).toBe(false)
      expect(existsSync(approvalsFile(box))).toBe(false)
    })
  })
}

test('55-mcp.md M6: an untrusted folder is asked nothing and starts nothing', async () => {
  const { box, marker } = await projectFolder(false)
  await withAcp({ box, permission: answering('approve') }, async (acp) => {
    await newSession(acp)
    await new Promise((r) => setTimeout(r, 500))
    expect(acp.permissionRequests).toHaveLength(0)
    expect(existsSync(marker)).toBe(false)
  })
})
