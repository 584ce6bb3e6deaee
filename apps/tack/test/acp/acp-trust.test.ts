// Workspace trust is decided per ACP session, from that session's folder, never from the folder `tack
// acp` was started in (docs/decisions/0140-acp-trust-per-session.md, docs/security.md): the real `tack
// acp` driven by the SDK's client app, with one folder trusted (`tack trust`) and one not. Each folder
// holds Claude and Codex hooks, a `.tack/plugins` plugin and a project config that allows bash
// (trust-fixture.ts); what ran is read back from the folder's `ran.log`.
import { join } from 'node:path'
import { methods } from '@agentclientprotocol/sdk'
import { expect, test, vi } from 'vitest'
import type { Sandbox } from '../helpers.ts'
import { ALL_RAN, ranIn, trustFolder, twoFoldersWithProjectCode } from '../trust-fixture.ts'
import { type AcpChild, withAcp } from './client.ts'

// Each test starts tack several times (trust, hooks trust, two servers or runs, each booting two folders).
vi.setConfig({ testTimeout: 90_000 })

const BASH_THEN_DONE = [
  { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo hi' } }] },
  { kind: 'text', text: 'done' },
]

async function promptIn(acp: AcpChild, sessionId: string, text: string) {
  const response = await acp.connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text }],
  })
  expect(response.stopReason).toBe('end_turn')
}

async function newSessionIn(acp: AcpChild, cwd: string): Promise<string> {
  return (await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })).sessionId
}

async function loadSessionIn(acp: AcpChild, sessionId: string, cwd: string): Promise<void> {
  await acp.connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] })
}

/**
 * A session in `b` from a `tack acp` started in the box's workspace: created and prompted once, then
 * loaded by a second server and prompted again. Bash asks `asks` times in each server (B's allow rule
 * applies only where B is trusted); `afterNew` checks the first server before it closes.
 */
async function newThenLoad(box: Sandbox, b: string, asks: number, afterNew: (acp: AcpChild) => void) {
  let sessionId = ''
  await withAcp({ box, script: BASH_THEN_DONE }, async (acp) => {
    sessionId = await newSessionIn(acp, b)
    await promptIn(acp, sessionId, 'go')
    expect(acp.permissionRequests).toHaveLength(asks)
    afterNew(acp)
  })
  // The scripted model answers by the session's request number: a loaded session goes on at its third.
  await withAcp({ box, script: [...BASH_THEN_DONE, ...BASH_THEN_DONE] }, async (acp) => {
    await loadSessionIn(acp, sessionId, b)
    await promptIn(acp, sessionId, 'again')
    expect(acp.permissionRequests).toHaveLength(asks)
  })
}

test('tack acp started in a trusted folder runs none of an untrusted session folder’s hooks, plugins or project config, on session/new and session/load', async () => {
  const { box, a, b } = await twoFoldersWithProjectCode()
  await trustFolder(box, a)
  // B's allow rule is held back, and A's (trusted) does not reach B's session: bash asks.
  await newThenLoad(box, b, 1, (acp) => {
    expect(ranIn(b)).toEqual([])
    expect(acp.stderr()).toContain(
      `tack: workspace ${b} is not trusted — ignored from ${join(b, '.tack', 'config.yml')}: plugins.permissions.allow; not run: 3 project hook(s), 1 project plugin(s)`,
    )
    // A's own project code loaded in its own context, where it is trusted.
    expect(ranIn(a)).toEqual(['plugin'])
  })
  expect(ranIn(b)).toEqual([])
})

test('tack acp started in an untrusted folder runs a trusted session folder’s hooks, plugins and project config, on session/new and session/load', async () => {
  const { box, a, b } = await twoFoldersWithProjectCode()
  await trustFolder(box, b)
  // B's allow rule applies: bash runs without asking.
  await newThenLoad(box, b, 0, (acp) => {
    expect(ranIn(b)).toEqual(ALL_RAN)
    expect(acp.stderr()).toContain(`tack: workspace ${a} is not trusted`)
    expect(acp.stderr()).not.toContain(`workspace ${b} is not trusted`)
  })
  expect(ranIn(b)).toEqual([...ALL_RAN, ...ALL_RAN].sort())
  expect(ranIn(a)).toEqual([])
})
