// A bash call run in the ACP client's terminal (50-acp.md requirement 11) gives Claude Code hooks the same
// Bash `tool_response` as one tack runs itself (packages/hooks-claude/README.md "Bash: stdout and
// noOutputExpected"): `stdout` is the command's own output, never the model's text with tack's notes
// ("(no output)", "[exit code …]"). The real `tack acp`, a stub client terminal, and a user PostToolUse
// hook that saves its payload.
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ClientApp, methods } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { sandbox } from '../helpers.ts'
import { promptOnce, withAcp } from './client.ts'

/** A client terminal whose command printed `output` and exited 0. */
const silentTerminal = (output: string) => (app: ClientApp) =>
  app
    .onRequest(methods.client.terminal.create, () => ({ terminalId: 'term-1' }))
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
