// R4, R8, R9, R13, R14, R17, R18, R19, R21: the writer and the guarantees that keep a session undisturbed,
// under the Claude Code mod-API double (in memory, and on a real disk with the real `mv`).
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, test } from 'vitest'
import { resolveFolder } from '../src/mod/folder.ts'
import { register } from '../src/mod/register.ts'
import {
  backgroundEnd,
  backgroundStart,
  DEFAULT_LIMITS,
  newSession,
  open,
  addUsage,
} from '../src/mod/state.ts'
import { harnessA, OUTPUT } from './support/harness-a.ts'
import { type DoubleOptions, ModApiDouble, settle } from './support/mod-api-double.ts'
import { validateFile } from './support/schemas.ts'

const waitFor = async (ok: () => boolean, ms = 5_000) => {
  const until = Date.now() + ms
  while (!ok()) {
    if (Date.now() > until) throw new Error('timed out waiting')
    await new Promise((r) => setImmediate(r))
  }
}
async function loaded(opts: DoubleOptions) {
  const d = new ModApiDouble(opts)
  await d.load(register as never)
  return d
}
/** A loaded mod mid-turn (its first writes settled) whose further writes each take `writeDelayMs`. */
async function midTurnWithSlowWrites(writeDelayMs: number) {
  const d = await loaded({})
  await d.fire('session.start', { cwd: '/w' })
  await d.fire('turn.start', { text: 'x', turnId: 't' })
  await settle()
  d.writeDelayMs = writeDelayMs
  return d
}
const measure = (d: ModApiDouble, percent: number) =>
  d.fire('session.measure', { context: { percent }, rateLimits: [], changed: ['context'] })

describe('R4 output folder', () => {
  test.each([
    ['/abs/dir/ ', 'claude-code', '/abs/dir'],
    ['  /abs/dir///', 'tack', '/abs/dir'],
    ['~/states/', 'claude-code', '/home/p/states'],
    ['relative/dir', 'claude-code', null],
    ['', 'claude-code', '/home/p/.claude/agent-state'],
    ['', 'tack', '/tack-home/agent-state'],
  ] as const)('option %j under %s → %j', (option, host, folder) => {
    expect(resolveFolder(option, host, '/home/p', '/tack-home')).toBe(folder)
  })

  test('tack home falls back to <home>/.tack when TACK_HOME is not absolute', () => {
    expect(resolveFolder(undefined, 'tack', '/home/p', 'rel')).toBe('/home/p/.tack/agent-state')
  })

  test.each([
    ['a relative option', { options: { outputDir: 'states' } }],
    ['a missing HOME', { env: {} }],
    ['a relative HOME', { env: { HOME: 'home' } }],
  ])('%s writes zero files, and every event still passes', async (_label, opts) => {
    const d = await loaded(opts)
    expect(await d.fire('session.start', { cwd: '/w' }, () => ({ cwd: '/w' }))).toEqual({ cwd: '/w' })
    await d.fire('turn.start', { text: 'x', turnId: 't' })
    await d.fire('turn.complete', { turnId: 't', reason: 'answer' })
    await d.fire('session.end', { reason: 'other' })
    expect(d.writes).toEqual([])
    expect(d.nextCalls).toHaveLength(4)
  })
})

describe('R9 writer', () => {
  test('with a delaying fs, 100 state changes cause at most 3 snapshot writes, the last one the final state', async () => {
    const d = await midTurnWithSlowWrites(50)
    const before = d.writes.length
    for (let i = 0; i < 50; i++)
      await d.fire('tool.call', { tool: `T${i}`, tool_use_id: `c${i}` }, () => ({ result: {} }))
    await settle(60)
    await settle(60)
    const snapshots = d.writes.slice(before).filter((w) => w.path.endsWith('.json.tmp'))
    expect(snapshots.length).toBeGreaterThan(0)
    expect(snapshots.length).toBeLessThanOrEqual(3)
    expect(JSON.parse(snapshots.at(-1)?.text ?? '')).toMatchObject({ state: 'working', tool: null })
    expect(JSON.parse(d.memory.get(`${OUTPUT}/session-a1.json`) ?? '')).toMatchObject({ state: 'working' })
  })

  test('a failed write is retried by the next change', async () => {
    const d = await loaded({})
    await d.fire('session.start', { cwd: '/w' })
    await settle()
    d.failWrites = true
    await measure(d, 10)
    await settle()
    d.failWrites = false
    await measure(d, 20)
    await settle()
    expect(JSON.parse(d.memory.get(`${OUTPUT}/session-a1.json`) ?? '').signals.context.value).toBe('20')
  })
})

describe('R8 atomic writes', () => {
  test('a reader polling the snapshot through 1,000 rewrites (tmp + rename) never sees invalid JSON', async () => {
    const home = mkdtempSync(join(tmpdir(), 'agent-state-r8-'))
    const d = await loaded({ disk: true, env: { HOME: home } })
    await d.fire('session.start', { cwd: '/w' })
    const file = join(home, '.claude', 'agent-state', 'session-a1.json')
    await waitFor(() => d.writes.some((w) => w.path === `${file}.tmp`))
    await waitFor(() => existsSync(file))
    let done = false
    let polls = 0
    const bad: string[] = []
    const poller = (async () => {
      while (!done || polls < 1_000) {
        const text = readFileSync(file, 'utf8')
        try {
          JSON.parse(text)
        } catch {
          bad.push(text)
        }
        polls++
        await new Promise((r) => setImmediate(r))
      }
    })()
    for (let i = 1; i <= 1_000; i++) {
      const n = d.writes.length
      await measure(d, i % 2 === 0 ? 1 : 2)
      await waitFor(() => d.writes.length > n)
    }
    done = true
    await poller
    expect(polls).toBeGreaterThanOrEqual(1_000)
    expect(bad).toEqual([])
  }, 120_000)

  test('with the real mv spawned, a session on disk leaves its files and no .tmp behind', async () => {
    const home = mkdtempSync(join(tmpdir(), 'agent-state-mv-'))
    const d = await loaded({ disk: true, spawnMv: true, env: { HOME: home } })
    await d.fire('session.start', { cwd: '/w' })
    await d.fire('turn.start', { text: 'a', turnId: 't' })
    await d.fire('turn.complete', { turnId: 't', reason: 'answer' })
    await d.fire('session.end', { reason: 'other' })
    const files = await d.files(join(home, '.claude', 'agent-state'))
    expect(Object.keys(files).sort()).toEqual(['session-a1.json', 'session-a1.jsonl'])
    expect(JSON.parse(files['session-a1.json'])).toMatchObject({ state: 'ended' })
  })

  test('under Claude Code with umask 022 and an existing 0755 folder, the files are 0600 and the folder 0700', async () => {
    const home = mkdtempSync(join(tmpdir(), 'agent-state-modes-'))
    const folder = join(home, '.claude', 'agent-state')
    mkdirSync(folder, { recursive: true, mode: 0o755 })
    chmodSync(folder, 0o755)
    const before = process.umask(0o022)
    try {
      const d = await loaded({ disk: true, env: { HOME: home } })
      await d.fire('session.start', { cwd: '/w' })
      await d.fire('turn.start', { text: 'a', turnId: 't' })
      await d.fire('turn.complete', { turnId: 't', reason: 'answer' })
      await d.fire('session.end', { reason: 'other' })
    } finally {
      process.umask(before)
    }
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    const modes = readdirSync(folder).map((n) => [n, statSync(join(folder, n)).mode & 0o777])
    expect(modes).toEqual([
      ['session-a1.json', 0o600],
      ['session-a1.jsonl', 0o600],
    ])
  })

  test('a configured outputDir keeps the mode its owner gave it; the files are still 0600', async () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-state-modes-'))
    const folder = join(root, 'shared')
    mkdirSync(folder, { mode: 0o755 })
    chmodSync(folder, 0o755)
    const d = await loaded({ disk: true, options: { outputDir: folder } })
    await d.fire('session.start', { cwd: '/w' })
    await d.fire('session.end', { reason: 'other' })
    expect(statSync(folder).mode & 0o777).toBe(0o755)
    expect(statSync(join(folder, 'session-a1.json')).mode & 0o777).toBe(0o600)
  })

  test('when the rename fails, the mod writes directly from then on', async () => {
    const d = await loaded({})
    d.failRename = true
    await d.fire('session.start', { cwd: '/w' })
    await settle()
    await measure(d, 42)
    await settle()
    const snapshot = JSON.parse(d.memory.get(`${OUTPUT}/session-a1.json`) ?? '')
    expect(snapshot.signals.context.value).toBe('42')
    const tmpWrites = d.writes.filter((w) => w.path.endsWith('.tmp'))
    expect(tmpWrites).toHaveLength(1) // one attempt, then direct
  })

  test('a host without $.process falls back to direct writes too', async () => {
    const d = await loaded({ noProcess: true })
    await d.fire('session.start', { cwd: '/w' })
    await settle()
    expect(JSON.parse(d.memory.get(`${OUTPUT}/session-a1.json`) ?? '')).toMatchObject({ state: 'idle' })
  })

  test('under tack ($.session.version() says host tack) files are written directly, to the tack home', async () => {
    const d = await loaded({
      version: { version: '0.1.0', host: 'tack' },
      env: { HOME: '/home/p', TACK_HOME: '/th' },
    })
    await d.fire('session.start', { cwd: '/w' })
    await settle()
    expect(d.writes.map((w) => w.path)).toEqual([
      '/th/agent-state/session-a1.jsonl',
      '/th/agent-state/session-a1.json',
    ])
    expect(JSON.parse(d.memory.get('/th/agent-state/session-a1.json') ?? '')).toMatchObject({
      host: 'tack',
      version: '0.1.0',
    })
  })
})

describe('R13 end', () => {
  test('a host that exits 30 ms after the turn still gets turn_end, session_end and ended on disk', async () => {
    const d = await midTurnWithSlowWrites(20)
    await d.fire('turn.complete', { turnId: 't', reason: 'answer' })
    await new Promise((r) => setTimeout(r, 30))
    let atExit: Record<string, string> = {}
    await d.fire('session.end', { reason: 'other' }, async (e) => {
      atExit = await d.files(OUTPUT) // the host exits as soon as the hook chain returns
      return e
    })
    expect(JSON.parse(atExit['session-a1.json'])).toMatchObject({ state: 'ended', tool: null })
    const log = atExit['session-a1.jsonl']
    expect(log).toContain('"signal":"turn_end"')
    expect(log).toContain('"signal":"session_end","value":"other"')
    expect(log).toContain('"state":"ended"')
  })

  test('the heartbeat timer is replaced on open and cancelled at end', async () => {
    const d = await loaded({})
    await d.fire('session.start', { cwd: '/w' })
    await settle()
    expect(d.timers.size).toBe(1)
    await d.fire('session.start', { cwd: '/w' })
    await settle()
    expect(d.timers.size).toBe(1)
    await d.fire('session.end', { reason: 'other' })
    await settle()
    expect(d.timers.size).toBe(0)
  })
})

describe('R14 R17 R18 caps and repeats', () => {
  test('two identical turn_end events log two lines', async () => {
    const d = await harnessA()
    await d.fire('session.start', { cwd: '/w' })
    for (const id of ['t1', 't2']) {
      await d.fire('turn.start', { text: 'x', turnId: id })
      await d.fire('turn.complete', { turnId: id, reason: 'answer' })
    }
    await d.settle()
    const log = (await d.files())['session-a1.jsonl']
    expect(log.match(/"signal":"turn_end","value":"answer"/g)).toHaveLength(2)
  })

  test('60 lost ends, and 60 starts never ended, leave both lists at 50', () => {
    const s = newSession(DEFAULT_LIMITS)
    open(s, { host: 'claude-code', version: null, id: 'x', cwd: '/', startedMs: null, files: null })
    for (let i = 0; i < 60; i++) backgroundEnd(s, `lost-${i}`)
    for (let i = 0; i < 60; i++) backgroundStart(s, `run-${i}`, 'proc')
    expect(s.earlyEnds.size).toBe(50)
    expect(s.running.size).toBe(50)
    expect(s.signals.get('background_proc')?.value).toBe('50')
  })

  test('at most 200 usage keys are open, the oldest evicted', () => {
    const s = newSession(DEFAULT_LIMITS)
    const u = {
      input_tokens: 1,
      output_tokens: 1,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    }
    for (let i = 0; i < 250; i++) addUsage(s, `turn-${i}`, 'm', false, u)
    expect(s.sums.size).toBe(200)
    expect([...s.sums.values()][0].turn).toBe('turn-50')
    addUsage(s, 'turn-x', 'x'.repeat(81), false, u)
    expect(s.sums.size).toBe(200)
  })
})

describe('R19 R21 a session is never disturbed', () => {
  test('every handler calls next once with the identical e and returns its result unchanged', async () => {
    const d = await loaded({})
    const results: unknown[] = []
    const core = (e: unknown) => ({ echoed: e })
    const events: Array<[string, Record<string, unknown>]> = [
      ['session.start', { cwd: '/w' }],
      ['prompt.edit', { text: 'a', cursor: 1 }],
      ['prompt.suggest', { text: 's' }],
      ['prompt.submit', { text: 'a', origin: { kind: 'sdk' } }],
      ['command.run', { command: 'x', args: '' }],
      ['turn.start', { text: 'a', turnId: 't' }],
      ['tool.call', { tool: 'Bash', tool_use_id: 'c' }],
      ['tool.check', { tool: 'Bash', input: {}, tool_use_id: 'c' }],
      ['session.measure', { context: { percent: 3 } }],
      ['classic.StopFailure', { error: 'x' }],
      ['classic.Notification', { notification_type: 'x' }],
      ['turn.complete', { turnId: 't', reason: 'answer' }],
      ['session.end', { reason: 'other' }],
    ]
    for (const [event, e] of events) results.push(await d.fire(event, e, core))
    expect(results).toEqual(events.map(([, e]) => ({ echoed: e })))
    expect(d.nextCalls).toHaveLength(events.length)
    expect(d.nextCalls.every((c) => c.sameE)).toBe(true)
    const step = await d.step({ turnId: 't', model: 'm' }, ['a', 'b'], { usage: null })
    expect(step).toEqual({ chunks: ['a', 'b'], result: { usage: null } })
  })

  test('a core that throws reaches the host unchanged', async () => {
    const d = await loaded({})
    await d.fire('session.start', { cwd: '/w' })
    await d.fire('turn.start', { text: 'a', turnId: 't' })
    const boom = new Error('tool failed')
    await expect(
      d.fire('tool.call', { tool: 'Bash', tool_use_id: 'c' }, () => {
        throw boom
      }),
    ).rejects.toBe(boom)
  })

  test('an unwritable folder on disk: the session runs, nothing is written, nothing throws', async () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-state-ro-'))
    writeFileSync(join(root, 'file'), 'not a folder')
    const d = await loaded({ disk: true, options: { outputDir: join(root, 'file', 'states') } })
    await d.fire('session.start', { cwd: '/w' })
    await d.fire('turn.start', { text: 'a', turnId: 't' })
    expect(await d.fire('tool.call', { tool: 'Bash', tool_use_id: 'c' }, () => ({ result: 1 }))).toEqual({
      result: 1,
    })
    await d.fire('turn.complete', { turnId: 't', reason: 'answer' })
    const began = Date.now()
    await d.fire('session.end', { reason: 'other' })
    expect(Date.now() - began).toBeLessThan(1_500)
    expect(d.writes).toEqual([])
  })

  test('10 concurrent sessions in one folder each keep their own files', async () => {
    const home = mkdtempSync(join(tmpdir(), 'agent-state-10-'))
    const sessions = await Promise.all(
      Array.from({ length: 10 }, (_, i) => loaded({ disk: true, env: { HOME: home }, sessionId: `s-${i}` })),
    )
    await Promise.all(
      sessions.map(async (d, i) => {
        await d.fire('session.start', { cwd: `/w/${i}` })
        for (let t = 0; t < 5; t++) {
          await d.fire('turn.start', { text: 'a', turnId: `t${t}` })
          await d.fire('tool.call', { tool: 'Bash', tool_use_id: `c${t}` }, async () => {
            await new Promise((r) => setTimeout(r, 1))
            return { result: t }
          })
          await d.fire('turn.complete', { turnId: `t${t}`, reason: 'answer' })
        }
        if (i % 2 === 0) await d.fire('session.end', { reason: 'other' })
      }),
    )
    await settle(50) // the live sessions' last writes land
    for (const [i, d] of sessions.entries()) {
      const files = await d.files(join(home, '.claude', 'agent-state'))
      expect(JSON.parse(files[`s-${i}.json`])).toMatchObject({
        session_id: `s-${i}`,
        cwd: `/w/${i}`,
        state: i % 2 === 0 ? 'ended' : 'idle',
      })
      for (const [name, text] of Object.entries(files))
        if (name.startsWith(`s-${i}.`)) expect(validateFile(name, text)).toEqual([])
    }
  })

  test('100,000 events with an unwritable folder grow the heap by less than 5 MB', async () => {
    setFlagsFromString('--expose_gc')
    const gc = runInNewContext('gc') as () => void
    const d = await loaded({})
    d.failWrites = true
    await d.fire('session.start', { cwd: '/w' })
    await d.fire('turn.start', { text: 'a', turnId: 't' })
    await settle()
    const round = async (n: number) => {
      for (let i = 0; i < n; i++) {
        if (i % 4 === 0)
          await d.fire('tool.call', { tool: 'Bash', tool_use_id: `c${i}` }, () => ({
            result: { backgroundTaskId: `b${i}` },
          }))
        else if (i % 4 === 1) await measure(d, i % 100)
        else if (i % 4 === 2)
          await d.step({ turnId: `t${i}`, model: `m${i % 300}` }, [], {
            usage: {
              input_tokens: 1,
              output_tokens: 1,
              cache_read_input_tokens: 0,
              cache_creation_input_tokens: 0,
            },
          })
        else await d.fire('classic.Notification', { notification_type: `n${i}` })
      }
      await settle()
    }
    await round(10_000) // fill every cap first
    gc()
    const before = process.memoryUsage().heapUsed
    await round(100_000)
    gc()
    const grown = process.memoryUsage().heapUsed - before
    expect(grown).toBeLessThan(5 * 1024 * 1024)
  }, 120_000)
})
