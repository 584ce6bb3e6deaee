// Workspace trust follows the real folder a session works in, however the client spells it
// (docs/decisions/0140-acp-trust-per-session.md; trust is keyed by real path, 0013-workspace-trust.md):
// through the real `tack acp` started in a trusted folder A, a session whose cwd is a link inside A to an
// untrusted folder E, or reaches E through `..`, runs none of E's hooks, plugins or project config; a
// session recorded in a trusted folder that was later replaced by a link to E does not either when it is
// loaded; a relative cwd is refused.
import { mkdir, rename, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { methods } from '@agentclientprotocol/sdk'
import { expect, test, vi } from 'vitest'
import { sandbox } from '../helpers.ts'
import { folderWithProjectCode, ranIn, trustFolder } from '../trust-fixture.ts'
import { type AcpChild, withAcp } from './client.ts'

vi.setConfig({ testTimeout: 120_000 })

const BASH_THEN_DONE = [
  { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo hi' } }] },
  { kind: 'text', text: 'done' },
]

/** A new session in `cwd`, prompted once (bash, then an answer); resolves to its id. */
async function promptedSession(acp: AcpChild, cwd: string): Promise<string> {
  const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })
  const done = await acp.connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: 'go' }],
  })
  expect(done.stopReason).toBe('end_turn')
  return sessionId
}

test('a link inside a trusted folder to an untrusted one, or a path through .., gets the untrusted folder’s trust', async () => {
  const box = await sandbox()
  const a = box.workspace
  const e = join(box.root, 'evil')
  await mkdir(e)
  await folderWithProjectCode(box, e)
  await trustFolder(box, a)
  await symlink(e, join(a, 'link'))
  await mkdir(join(a, 'sub'))
  const cwds = [join(a, 'link'), `${a}/sub/../link`, `${a}/../evil`]
  await withAcp({ box, script: cwds.flatMap(() => BASH_THEN_DONE) }, async (acp) => {
    for (const cwd of cwds) await promptedSession(acp, cwd)
    // E's allow rule never applied: bash asked every time.
    expect(acp.permissionRequests).toHaveLength(cwds.length)
    const relative = await acp.connection.agent
      .request(methods.agent.session.new, { cwd: 'evil', mcpServers: [] })
      .catch((error: { code?: number }) => error)
    expect(relative).toMatchObject({ code: -32602 })
  })
  expect(ranIn(e)).toEqual([])
})

test('a session recorded in a trusted folder that is now a link to an untrusted one loads untrusted', async () => {
  const box = await sandbox()
  const a = join(box.root, 'a')
  await mkdir(a)
  await trustFolder(box, a)
  const e = join(box.root, 'evil')
  await mkdir(e)
  await folderWithProjectCode(box, e)
  let sessionId = ''
  await withAcp({ box, script: BASH_THEN_DONE }, async (acp) => {
    sessionId = await promptedSession(acp, a)
  })
  await rename(a, join(box.root, 'a-before'))
  await symlink(e, a)
  await withAcp({ box, script: [...BASH_THEN_DONE, ...BASH_THEN_DONE] }, async (acp) => {
    await acp.connection.agent.request(methods.agent.session.load, { sessionId, cwd: a, mcpServers: [] })
    const done = await acp.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'again' }],
    })
    expect(done.stopReason).toBe('end_turn')
    expect(acp.permissionRequests).toHaveLength(1)
    expect(acp.stderr()).toContain(`tack: workspace ${a} is not trusted`)
  })
  expect(ranIn(e)).toEqual([])
})
