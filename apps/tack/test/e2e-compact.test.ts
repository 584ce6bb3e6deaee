// Compaction through the real binary (35-compaction.md): `tack run -c "/compact"` compacts the session a
// first run left, and (CP-5) a SIGKILL between `compact/start` and `compact/end` leaves a session that
// loads with the old surface, no half-applied state, and compacts fine afterwards. Generous timeouts: each
// test runs the binary two or three times on a shared, loaded machine.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { writeFile } from 'node:fs/promises'
import { startLoopbackServer } from '@tack/llm/testing'
import { Session, type SessionEvent, surfaceOf } from '@tack/session'
import { checkLogStructure } from '@tack/session/invariants'
import { SqliteSessionStore } from '@tack/store-sqlite'
import { expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox, TACK_BIN, writeJson } from './helpers.ts'

/** A first run: three bash calls with sizeable output, then an answer. */
async function firstRun(box: Sandbox): Promise<void> {
  const calls = [1, 2, 3].map((i) => ({
    kind: 'tool-calls',
    calls: [{ name: 'bash', args: { command: `seq ${i} 400` } }],
  }))
  const script = await writeJson(join(box.root, 'first.json'), [...calls, { kind: 'text', text: 'counted' }])
  const r = await runTack(['run', '--model', `scripted/${script}`, 'count three times'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(r.stderr).not.toContain('turn ended')
  expect(r.code).toBe(0)
}

async function loadOnly(box: Sandbox): Promise<{ events: readonly SessionEvent[]; session: Session }> {
  const store = SqliteSessionStore.open({ path: join(box.tackHome, 'sessions.db') })
  try {
    const [summary] = await store.list()
    const { header, events } = await store.load(summary.id)
    return { events, session: new Session({ header, events }) }
  } finally {
    await store.close()
  }
}

test('CP-2 tack run -c "/compact" compacts the continued session: [summary, tail]; exit 0', async () => {
  const box = await sandbox()
  await firstRun(box)
  const before = (await loadOnly(box)).session.deriveMessages()
  const summary = await writeJson(join(box.root, 'summary.json'), [
    { kind: 'text', text: 'The user had the agent count three times with seq.' },
  ])
  const r = await runTack(['run', '-c', '--model', `scripted/${summary}`, '/compact'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(r.code).toBe(0)
  expect(r.stdout).toMatch(/^Compacted \d+ messages? into a summary; kept the newest \d+/)
  // the pause is explained on stderr
  expect(r.stderr).toMatch(/^tack: compacting the session \(about \d+ tokens\)/m)
  expect(r.stderr).toContain('tack: compacted: the older part is now a summary')
  const { events, session } = await loadOnly(box)
  checkLogStructure(events)
  const after = session.deriveMessages()
  expect(JSON.stringify(after[0].content)).toContain('The user had the agent count three times with seq.')
  expect(after.slice(1)).toEqual(before.slice(before.length - (after.length - 1)))
  expect(after.length).toBeLessThan(before.length)
  expect(events.filter((e) => e.type.startsWith('compact/')).map((e) => e.type)).toEqual([
    'compact/start',
    'compact/summary',
    'compact/end',
  ])
}, 120_000)

test('/compact with --json streams the compact events and a result line; off in config, it says so', async () => {
  const box = await sandbox()
  await firstRun(box)
  const summary = await writeJson(join(box.root, 'summary.json'), [{ kind: 'text', text: 'short' }])
  const r = await runTack(
    ['run', '-c', '--json', '--model', `scripted/${summary}`, '/compact keep the numbers'],
    {
      env: box.env,
      cwd: box.workspace,
    },
  )
  expect(r.code).toBe(0)
  const lines = jsonLines(r.stdout)
  expect(lines.map((l) => l.type).filter((t) => String(t).startsWith('compact/'))).toEqual([
    'compact/start',
    'compact/summary',
    'compact/end',
  ])
  expect(lines.at(-1)).toMatchObject({ type: 'result', reason: { kind: 'completed' }, isError: false })

  const off = join(box.root, 'off.yml')
  await writeFile(off, 'plugins:\n  compaction: false\n')
  const r2 = await runTack(['run', '-c', '--config', off, '--model', `scripted/${summary}`, '/compact'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(r2.code).toBe(2)
  expect(r2.stderr.trim()).toBe(
    'tack: /compact needs the compaction plugin, which the config turns off (plugins.compaction: false)',
  )
}, 120_000)

test('CP-5 SIGKILL between compact/start and compact/end: the session loads with the old surface', async () => {
  const box = await sandbox()
  await firstRun(box)
  const old = await loadOnly(box)
  const oldSurface = old.session.surface().map((e) => e.seq)
  const oldMessages = old.session.deriveMessages()
  // The summary call never answers (a real HTTP request that hangs): the kill lands while compaction waits.
  // compact/start is flushed before the summary call, so once the request arrives the kill falls between.
  let kill = () => {}
  const server = await startLoopbackServer({ script: [{ kind: 'hang' }], onRequest: () => kill() })
  const config = join(box.root, 'loop.yml')
  await writeFile(
    config,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  const child = spawn(
    process.execPath,
    [TACK_BIN, 'run', '-c', '--json', '--config', config, '--model', 'loop/m', '/compact'],
    { env: box.env, cwd: box.workspace, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
  kill = () => child.kill('SIGKILL')
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d
  })
  expect(await exited).toBe('SIGKILL')
  expect(out).toContain('"type":"compact/start"')
  await server.close()

  const { events, session } = await loadOnly(box)
  checkLogStructure(events)
  expect(events.some((e) => e.type === 'compact/start')).toBe(true)
  expect(events.some((e) => e.type === 'compact/end' || e.type === 'compact/summary')).toBe(false)
  expect(session.surface().map((e) => e.seq)).toEqual(oldSurface)
  expect(session.deriveMessages()).toEqual(oldMessages)
  expect(surfaceOf(events).map((e) => e.seq)).toEqual(oldSurface)

  // and the session compacts fine afterwards
  const summary = await writeJson(join(box.root, 'summary.json'), [{ kind: 'text', text: 'after the crash' }])
  const r = await runTack(['run', '-c', '--model', `scripted/${summary}`, '/compact'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(r.code).toBe(0)
  const later = await loadOnly(box)
  expect(JSON.stringify(later.session.deriveMessages()[0].content)).toContain('after the crash')
}, 120_000)

test('a provider answering "context too long" (OpenAI wording, over HTTP) gets one compaction and one retry', async () => {
  const box = await sandbox()
  const tooLong = {
    error: {
      message:
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  }
  const seq = (i: number) => ({
    kind: 'tool-calls' as const,
    calls: [{ name: 'bash', args: { command: `seq ${i} 400` } }],
  })
  const server = await startLoopbackServer({
    script: [
      seq(1),
      seq(2),
      seq(3),
      { kind: 'http-error', status: 400, body: tooLong },
      { kind: 'text', text: 'the agent printed numbers three times' },
      { kind: 'text', text: 'done after compaction' },
    ],
  })
  const config = join(box.root, 'loop.yml')
  await writeFile(
    config,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  const r = await runTack(['run', '--config', config, '--model', 'loop/m', 'print numbers'], {
    env: box.env,
    cwd: box.workspace,
  })
  await server.close()
  expect(r.stderr).not.toContain('turn ended')
  expect(r.code).toBe(0)
  expect(r.stdout.trim()).toBe('done after compaction')
  expect(server.requests).toHaveLength(6)
  // the retried request is shorter than the refused one and starts after the summary
  const refused = server.requests[3].bytes
  const retried = server.requests[5]
  expect(retried.bytes).toBeLessThan(refused)
  expect(JSON.stringify(retried.body)).toContain('the agent printed numbers three times')
  const { events } = await loadOnly(box)
  expect(
    events.filter((e) => e.type === 'compact/start').map((e) => (e.data as { trigger: string }).trigger),
  ).toEqual(['context-too-long'])
}, 120_000)
