// 50-acp.md requirements 1–9 and 16 through the SDK's own client app, against the real `tack acp`
// process over its stdio pipes (the scripted model is chosen by configuration, no key).
import { readdirSync, readFileSync } from 'node:fs'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { methods, type RequestError } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { sandbox } from '../helpers.ts'
import { type AcpChild, scriptPath, startAcp, until, updatesOf, withAcp } from './client.ts'

const prompt = (acp: AcpChild, sessionId: string, text: string) =>
  acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] })

const newSession = async (acp: AcpChild, cwd = acp.box.workspace) =>
  (await acp.connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })).sessionId

const rejectionOf = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    return error as RequestError
  }
  throw new Error('expected the request to fail')
}

/**
 * Whether a process whose command line carries `marker` still runs. Found through /proc, not by pid:
 * the bash sandbox may give the command its own pid namespace, so `$!` inside is not a host pid.
 */
const running = (marker: string) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(marker)
      } catch {
        return false
      }
    })

test('50-acp.md requirement 16: new → prompt → updates → end_turn through buildSession and nextUpdate', async () => {
  await withAcp({ script: [{ kind: 'text', text: 'Hello there.', reasoning: 'Greet.' }] }, async (acp) => {
    const seen: string[] = []
    const stop = await acp.connection.agent.buildSession(acp.box.workspace).withSession(async (session) => {
      void session.prompt('hi')
      for (;;) {
        const message = await session.nextUpdate()
        if (message.kind === 'stop') return message.stopReason
        seen.push(message.update.sessionUpdate)
      }
    })
    expect(stop).toBe('end_turn')
    expect(seen).toContain('agent_thought_chunk')
    expect(seen).toContain('agent_message_chunk')
  })
})

test('50-acp.md requirement 3: relative cwd is -32602, an MCP entry that cannot start is reported once and the session goes on, bash runs in the session cwd', async () => {
  const box = await sandbox()
  const elsewhere = join(box.root, 'project')
  await mkdir(elsewhere)
  await withAcp(
    {
      box,
      args: ['--permission-mode', 'workspace-write'],
      script: [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'pwd' } }] },
        { kind: 'text', text: 'ok' },
      ],
    },
    async (acp) => {
      const bad = await rejectionOf(
        acp.connection.agent.request(methods.agent.session.new, { cwd: 'project', mcpServers: [] }),
      )
      expect(bad.code).toBe(-32602)
      expect(bad.message).toContain('cwd')
      const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
        cwd: elsewhere,
        mcpServers: [{ name: 'files', command: 'mcp-files', args: [], env: [] }],
      })
      expect(acp.stderr().match(/MCP server "files" did not start/g)).toHaveLength(1)
      expect((await prompt(acp, sessionId, 'where?')).stopReason).toBe('end_turn')
      const result = updatesOf(acp, 'tool_call_update').find((u) => u.status === 'completed')
      expect(JSON.stringify(result?.content)).toContain(elsewhere)
    },
  )
})

test('50-acp.md requirement 4: a fresh process loads the session, replays it and the next request carries the history', async () => {
  const box = await sandbox()
  await writeFile(join(box.workspace, 'story.txt'), 'one\ntwo\nthree\n')
  const first = await startAcp({
    box,
    script: [
      { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'story.txt' } }] },
      { kind: 'text', text: 'It has three lines.' },
    ],
  })
  const sessionId = await newSession(first)
  await first.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'read-only' })
  expect((await prompt(first, sessionId, 'how long is story.txt?')).stopReason).toBe('end_turn')
  expect(await first.close()).toBe(0)

  await writeFile(scriptPath(box), JSON.stringify([{ kind: 'text', text: 'Still three.' }]))
  await writeFile(`${scriptPath(box)}.cursor`, JSON.stringify({ next: 0, calls: 10 }))
  await withAcp({ box }, async (second) => {
    const loaded = await second.connection.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: box.workspace,
      mcpServers: [],
    })
    expect(loaded?.modes?.currentModeId).toBe('read-only')
    const replay = second.updates.map((n) => n.update.sessionUpdate)
    expect(replay.slice(0, 4)).toEqual([
      'user_message_chunk',
      'tool_call',
      'tool_call_update',
      'agent_message_chunk',
    ])
    expect(updatesOf(second, 'user_message_chunk')[0].content).toEqual({
      type: 'text',
      text: 'how long is story.txt?',
    })
    expect((await prompt(second, sessionId, 'and now?')).stopReason).toBe('end_turn')
    const requests = (await readFile(`${scriptPath(box)}.requests.jsonl`, 'utf8')).trim().split('\n')
    const last = JSON.stringify(JSON.parse(requests.at(-1) as string).messages)
    expect(last).toContain('how long is story.txt?')
    expect(last).toContain('It has three lines.')
    expect(last).toContain('and now?')
  })
})

test('50-acp.md requirement 5: two overlapping prompts each settle once, on their own turns', async () => {
  await withAcp(
    {
      script: [
        { kind: 'text', text: 'first answer' },
        { kind: 'text', text: 'second answer' },
      ],
    },
    async (acp) => {
      const sessionId = await newSession(acp)
      const settled: string[] = []
      const a = prompt(acp, sessionId, 'one').then((r) => settled.push(`one:${r.stopReason}`))
      const b = prompt(acp, sessionId, 'two').then((r) => settled.push(`two:${r.stopReason}`))
      await Promise.all([a, b])
      expect(settled).toEqual(['one:end_turn', 'two:end_turn'])
      const text = updatesOf(acp, 'agent_message_chunk')
        .map((u) => (u.content as { text: string }).text)
        .join('')
      expect(text).toBe('first answersecond answer')
    },
  )
})

test('50-acp.md requirement 6: cancel during a running bash call kills it and the prompt ends cancelled; the session stays usable', async () => {
  await withAcp(
    {
      args: ['--permission-mode', 'workspace-write'],
      script: [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'sleep 60.0101' } }] },
        { kind: 'text', text: 'after' },
        { kind: 'text', text: 'usable again' },
      ],
    },
    async (acp) => {
      const sessionId = await newSession(acp)
      const pending = prompt(acp, sessionId, 'sleep')
      await until(() => running('sleep 60.0101'), 'the sleeper to run')
      const cancelledAt = Date.now()
      await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId })
      expect((await pending).stopReason).toBe('cancelled')
      expect(Date.now() - cancelledAt).toBeLessThan(15_000)
      await until(() => !running('sleep 60.0101'), 'the sleeper to be gone', 15_000)
      const final = updatesOf(acp, 'tool_call_update').at(-1)
      expect(final?.status).toBe('failed')
      const after = acp.updates.length
      expect((await prompt(acp, sessionId, 'still there?')).stopReason).toBe('end_turn')
      expect(acp.updates.length).toBeGreaterThan(after)
    },
  )
})

test('50-acp.md requirement 6: a cancel during a permission request ends the prompt cancelled and the file is not written', async () => {
  let release: (() => void) | undefined
  await withAcp(
    {
      script: [
        { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'x.txt', content: 'x' } }] },
      ],
      permission: () =>
        new Promise((resolve) => {
          release = () => resolve({ outcome: { outcome: 'cancelled' } })
        }),
    },
    async (acp) => {
      const sessionId = await newSession(acp)
      const pending = prompt(acp, sessionId, 'write x')
      await until(() => acp.permissionRequests.length === 1, 'the permission request')
      await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId })
      expect((await pending).stopReason).toBe('cancelled')
      release?.()
      expect(existsSync(join(acp.box.workspace, 'x.txt'))).toBe(false)
      expect(updatesOf(acp, 'tool_call_update').at(-1)?.status).toBe('failed')
    },
  )
})

test('50-acp.md requirement 9: reject leaves the file untouched; allow always stops asking for that tool', async () => {
  const answers = ['reject-once', 'allow-always']
  await withAcp(
    {
      script: [
        { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'A' } }] },
        { kind: 'text', text: 'refused' },
        { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'b.txt', content: 'B' } }] },
        { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'c.txt', content: 'C' } }] },
        { kind: 'text', text: 'written' },
      ],
      permission: () => ({ outcome: { outcome: 'selected', optionId: answers.shift() as string } }),
    },
    async (acp) => {
      const sessionId = await newSession(acp)
      expect((await prompt(acp, sessionId, 'write a')).stopReason).toBe('end_turn')
      expect(existsSync(join(acp.box.workspace, 'a.txt'))).toBe(false)
      const failed = updatesOf(acp, 'tool_call_update').find(
        (u) => u.toolCallId === 'call_1' && u.status === 'failed',
      )
      expect(JSON.stringify(failed?.content)).toContain('The user rejected this tool call.')
      expect((await prompt(acp, sessionId, 'write b and c')).stopReason).toBe('end_turn')
      expect(acp.permissionRequests).toHaveLength(2)
      expect(await readFile(join(acp.box.workspace, 'b.txt'), 'utf8')).toBe('B')
      expect(await readFile(join(acp.box.workspace, 'c.txt'), 'utf8')).toBe('C')
      const request = acp.permissionRequests[0] as { options: Array<{ optionId: string; kind: string }> }
      expect(request.options.map((o) => `${o.optionId}:${o.kind}`)).toEqual([
        'allow-once:allow_once',
        'allow-always:allow_always',
        'reject-once:reject_once',
        'reject-always:reject_always',
      ])
    },
  )
})

test('50-acp.md requirement 1: closing stdin during a turn exits 0 and leaves no child process', async () => {
  const acp = await startAcp({
    args: ['--permission-mode', 'workspace-write'],
    script: [{ kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'sleep 60.0202' } }] }],
  })
  const sessionId = await newSession(acp)
  void prompt(acp, sessionId, 'sleep').catch(() => {})
  await until(() => running('sleep 60.0202'), 'the sleeper to run')
  expect(await acp.close()).toBe(0)
  expect(running('sleep 60.0202')).toBe(false)
})
