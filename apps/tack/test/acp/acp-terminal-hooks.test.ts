// A bash call run in the ACP client's terminal (50-acp.md requirement 11) is the bash tool's body: it gives
// Claude Code hooks the same Bash `tool_response` as one tack runs itself (packages/hooks-claude/README.md
// "Bash: stdout and noOutputExpected"): `stdout` is the command's own output, never the model's text with
// tack's notes ("(no output)", "[exit code …]"); and whether it goes to the client's terminal is decided by
// the settings of the session's own folder (docs/decisions/0140-acp-trust-per-session.md). The real
// `tack acp`, a stub client terminal, a user PostToolUse hook that saves its payload.
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ClientApp, methods } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { sandbox } from '../helpers.ts'
import { trustFolder } from '../trust-fixture.ts'
import { promptOnce, withAcp } from './client.ts'

/** A client terminal whose command printed `output` and exited 0; `created` counts its terminals. */
const silentTerminal =
  (output: string, created: string[] = []) =>
  (app: ClientApp) =>
    app
      .onRequest(methods.client.terminal.create, ({ params }) => {
        created.push(params.cwd ?? '')
        return { terminalId: 'term-1' }
      })
      .onRequest(methods.client.terminal.waitForExit, () => ({ exitCode: 0, signal: null }))
      .onRequest(methods.client.terminal.output, () => ({ output, truncated: false }))
      .onRequest(methods.client.terminal.kill, () => ({}))
      .onRequest(methods.client.terminal.release, () => ({}))

test('a silent command in the client terminal reaches a PostToolUse hook as stdout "" with noOutputExpected true', async () => {
  const box = await sandbox()
  const payload = join(box.root, 'post-tool-use.json')
  await mkdir(join(box.home, '.claude'), { recursive: true })
  await writeFile(
    join(box.home, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `cat > ${payload}` }] }],
      },
    }),
  )
  await withAcp(
    {
      box,
      script: [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'mkdir -p out' } }] },
        { kind: 'text', text: 'done' },
      ],
      capabilities: { terminal: true },
      configure: silentTerminal(''),
      permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow-once' } }),
    },
    async (acp) => {
      expect((await promptOnce(acp, 'make the folder')).stopReason).toBe('end_turn')
    },
  )
  const sent = JSON.parse(readFileSync(payload, 'utf8')) as { tool_response: Record<string, unknown> }
  expect(sent.tool_response).toEqual({
    stdout: '',
    stderr: '',
    interrupted: false,
    isImage: false,
    noOutputExpected: true,
  })
}, 60_000)

test('a folder whose config turns clientTerminal off runs its bash locally, whatever the launch folder says', async () => {
  const box = await sandbox()
  const b = join(box.root, 'b')
  await mkdir(join(b, '.tack'), { recursive: true })
  await writeFile(join(b, '.tack', 'config.yml'), 'plugins:\n  acp:\n    clientTerminal: false\n')
  await trustFolder(box, b)
  const created: string[] = []
  const bashThenDone = [
    { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo local' } }] },
    { kind: 'text', text: 'done' },
  ]
  await withAcp(
    {
      box,
      script: [...bashThenDone, ...bashThenDone],
      capabilities: { terminal: true },
      configure: silentTerminal('from the editor\n', created),
      permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow-once' } }),
    },
    async (acp) => {
      for (const cwd of [b, box.workspace]) {
        const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
          cwd,
          mcpServers: [],
        })
        const done = await acp.connection.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'go' }],
        })
        expect(done.stopReason).toBe('end_turn')
      }
    },
  )
  // Only the launch folder's session (clientTerminal on by default) used the client's terminal.
  expect(created).toEqual([box.workspace])
}, 90_000)
