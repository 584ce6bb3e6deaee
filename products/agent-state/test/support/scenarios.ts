// The shared scenarios of R27, written once against `Driver` so harness A (the Claude Code double) and
// harness B (tack's mod host) run the same table. Each scenario drives events and asserts on the files.
import { expect } from 'vitest'
import type { Capability, Driver, Setup } from './driver.ts'

export type Scenario = {
  id: number
  title: string
  setup?: Setup
  /** Events the scenario fires; a host that does not deliver one of them skips it (R3). */
  needs?: Capability[]
  run(d: Driver): Promise<void>
}

type Line = Record<string, unknown>
export type Output = { snapshot: Line | null; log: Line[]; previous: Line[]; names: string[] }

const parseLines = (text: string | undefined): Line[] =>
  (text ?? '')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line)

export async function output(d: Driver, id = 'session-a1'): Promise<Output> {
  await d.settle()
  const files = await d.files()
  return {
    snapshot: files[`${id}.json`] === undefined ? null : (JSON.parse(files[`${id}.json`]) as Line),
    log: parseLines(files[`${id}.jsonl`]),
    previous: parseLines(files[`${id}.jsonl.1`]),
    names: Object.keys(files).sort(),
  }
}

export const statesOf = (out: Output): string[] =>
  out.log.filter((l) => l.kind === 'state').map((l) => (l.tool ? `${l.state}:${l.tool}` : String(l.state)))
export const signalsOf = (out: Output): string[] =>
  out.log.filter((l) => l.kind === 'signal').map((l) => `${l.signal}=${l.value}`)
const usagesOf = (out: Output): Line[] => out.log.filter((l) => l.kind === 'usage')
const signal = (out: Output, name: string) =>
  (out.snapshot?.signals as Record<string, { value: string }> | undefined)?.[name]?.value

/** R27: times, `host` and `version` normalised, so two hosts' files compare field for field. */
export function normalise(files: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, text] of Object.entries(files))
    out[name] = text
      .replace(/"(t|[a-z_]*_ms|at_ms)":\d+/g, '"$1":0')
      .replace(/"(host|version)":("[^"]*"|null)/g, '"$1":"*"')
  return out
}

const start = (d: Driver, cwd = '/work/project') =>
  d.fire('session.start', { cwd, surface: 'terminal', isInteractive: true }, () => ({ cwd }))
let turnNo = 0
async function turn(d: Driver, inner: (turnId: string) => Promise<void>, reason = 'answer'): Promise<void> {
  const turnId = `session-a1:${++turnNo}`
  await d.fire('prompt.submit', { text: 'do it', wait: true, origin: { kind: 'sdk' } }, (e) => e)
  await d.fire('turn.start', { text: 'do it', turnId }, () => ({ turnId }))
  await inner(turnId)
  await d.fire('turn.complete', { answer: 'done', durationMs: 5, isAborted: false, turnId, reason }, () => ({
    text: 'done',
  }))
}
const usage = (input: number, output: number, read = 0, creation = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: creation,
})
const stepResult = (turnId: string, index: number, u: unknown) => ({
  turnId,
  index,
  answer: '',
  toolUses: [],
  stopReason: 'end_turn',
  usage: u,
})
/** Model step `index` of `turnId` on `model` (of a subagent with `agentId`), reporting `used`. */
function modelStep(
  d: Driver,
  turnId: string,
  index: number,
  model: string,
  used: unknown,
  more: { blocks?: unknown[]; agentId?: string } = {},
) {
  const agent = more.agentId === undefined ? {} : { agentId: more.agentId }
  return d.step(
    { turnId, index, model, messageCount: index + 1, ...agent },
    more.blocks ?? [],
    stepResult(turnId, index, used),
  )
}
/** The state the snapshot shows now (from inside a call: what a watcher sees meanwhile). */
const stateNow = async (d: Driver): Promise<string> => String((await output(d)).snapshot?.state)
/** The same with the tool it names, as `state:tool`. */
async function stateAndToolNow(d: Driver): Promise<string> {
  const s = (await output(d)).snapshot
  return `${s?.state}:${s?.tool}`
}
type Outcome = Record<string, unknown>
/** One tool call; `during` runs beneath it (inside the permission check and the run). */
function call(
  d: Driver,
  tool: string,
  id: string,
  result: Outcome,
  during?: () => Promise<void>,
  extra = {},
) {
  return d.fire('tool.call', { tool, tool_use_id: id, ...extra }, async () => {
    await during?.()
    return { result, text: 'ok', ref: id }
  })
}
const ask = (d: Driver, tool: string, id: string) =>
  d.fire('tool.check', { tool, input: {}, tool_use_id: id }, () => ({ decision: 'ask' }))
function deferred<T = void>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * A row of the table whose run begins with a session start, as every scenario but one does; the
 * capabilities it needs and its setup, if any, come before the body.
 */
function afterStart(
  id: number,
  title: string,
  ...rest: [body: Body] | [more: Pick<Scenario, 'needs' | 'setup'>, body: Body]
): Scenario {
  const [more, body] = rest.length === 1 ? [{}, rest[0]] : rest
  return {
    id,
    title,
    ...more,
    async run(d) {
      await start(d)
      await body(d)
    },
  }
}
type Body = (d: Driver) => Promise<void>

export const SCENARIOS: Scenario[] = [
  afterStart(1, 'session start', async (d) => {
    const out = await output(d)
    expect(out.names).toEqual(['session-a1.json', 'session-a1.jsonl'])
    expect(Object.keys(out.snapshot ?? {})).toEqual([
      'schema',
      'session_id',
      'host',
      'version',
      'cwd',
      'session_started_ms',
      'state',
      'tool',
      'state_since_ms',
      'heartbeat_ms',
      'heartbeat_interval_ms',
      'signals',
    ])
    expect(out.snapshot).toMatchObject({
      schema: 1,
      session_id: 'session-a1',
      cwd: '/work/project',
      state: 'idle',
    })
    expect(out.snapshot?.heartbeat_interval_ms).toBe(30_000)
    expect(out.log.map((l) => l.kind)).toEqual(['session_start', 'state'])
    expect(out.log[0]).toMatchObject({ schema: 1, cwd: '/work/project', host: d.host })
  }),
  afterStart(2, 'a prompt with a tool call', async (d) => {
    let during = ''
    await turn(d, async (turnId) => {
      await modelStep(d, turnId, 0, 'model-a', usage(10, 5), { blocks: [{ type: 'text' }] })
      await call(d, 'Bash', 'tu-1', { stdout: 'x' }, async () => {
        during = await stateNow(d)
      })
    })
    const out = await output(d)
    expect(during).toBe('tool')
    expect(statesOf(out)).toEqual(['idle', 'working', 'tool:Bash', 'working', 'idle'])
    expect(signal(out, 'turn_end')).toBe('answer')
    expect(usagesOf(out)).toMatchObject([{ model: 'model-a', input: 10, output: 5 }])
  }),
  afterStart(3, 'counted, dialog-tool and late verdicts', async (d) => {
    const seen: string[] = []
    const late = deferred<unknown>()
    let lateCheck: Promise<unknown> = Promise.resolve()
    await turn(d, async () => {
      await call(d, 'Bash', 'tu-1', {}, async () => {
        await ask(d, 'Bash', 'tu-1')
        seen.push(await stateAndToolNow(d))
      })
      seen.push(await stateNow(d))
      await call(d, 'AskUserQuestion', 'tu-2', {}, async () => {
        await ask(d, 'AskUserQuestion', 'tu-2')
        seen.push(await stateNow(d))
      })
      lateCheck = d.fire('tool.check', { tool: 'Bash', input: {}, tool_use_id: 'tu-3' }, () => late.promise)
    })
    late.resolve({ decision: 'ask' })
    await lateCheck
    const out = await output(d)
    expect(seen).toEqual(['permission:Bash', 'working', 'tool'])
    expect(out.snapshot?.state).toBe('idle')
    expect(statesOf(out)).toEqual([
      'idle',
      'working',
      'tool:Bash',
      'permission:Bash',
      'working',
      'tool:AskUserQuestion',
      'working',
      'idle',
    ])
  }),
  afterStart(4, 'parallel calls during an ask', async (d) => {
    const readDone = deferred()
    let afterRead = ''
    await turn(d, async () => {
      const read = call(d, 'Read', 'r1', {}, () => readDone.promise)
      await d.settle()
      await call(d, 'Bash', 'b1', {}, async () => {
        await ask(d, 'Bash', 'b1')
        readDone.resolve()
        await read
        afterRead = await stateAndToolNow(d)
      })
    })
    const out = await output(d)
    expect(afterRead).toBe('permission:Bash')
    expect(statesOf(out)).toEqual([
      'idle',
      'working',
      'tool:Read',
      'tool:Bash',
      'permission:Bash',
      'working',
      'idle',
    ])
  }),
  afterStart(5, 'a subagent ending mid-turn', async (d) => {
    let mid = ''
    await turn(d, async (turnId) => {
      await call(d, 'Agent', 'tu-a', { status: 'completed' }, async () => {
        const sub = 'agent-7'
        const subTurn = `${turnId}/sub`
        await d.fire('turn.start', { text: 'sub task', turnId: subTurn, agentId: sub }, (e) => e)
        await modelStep(d, subTurn, 0, 'model-s', usage(3, 2), { agentId: sub })
        await d.fire(
          'turn.complete',
          { answer: 'x', durationMs: 1, isAborted: false, turnId: subTurn, agentId: sub, reason: 'answer' },
          (e) => e,
        )
        mid = await stateNow(d)
      })
    })
    const out = await output(d)
    expect(mid).toBe('tool')
    expect(statesOf(out)).toEqual(['idle', 'working', 'tool:Agent', 'working', 'idle'])
    expect(usagesOf(out)).toMatchObject([{ model: 'model-s', sub_agent: true, input: 3 }])
    expect(signalsOf(out).filter((s) => s.startsWith('turn_end'))).toEqual(['turn_end=answer'])
  }),
  afterStart(6, 'a model fallback', async (d) => {
    await turn(d, async (turnId) => {
      await modelStep(d, turnId, 0, 'model-a', usage(10, 1, 4, 2))
      await modelStep(d, turnId, 1, 'model-a', usage(5, 1))
      await modelStep(d, turnId, 2, 'model-b', usage(7, 3))
      await modelStep(d, turnId, 3, 'model-b', { input_tokens: -1 })
    })
    const out = await output(d)
    expect(usagesOf(out).map(({ t, ...l }) => l)).toEqual([
      {
        kind: 'usage',
        model: 'model-a',
        sub_agent: false,
        input: 15,
        output: 2,
        cache_read: 4,
        cache_creation: 2,
      },
      {
        kind: 'usage',
        model: 'model-b',
        sub_agent: false,
        input: 7,
        output: 3,
        cache_read: 0,
        cache_creation: 0,
      },
    ])
  }),
  afterStart(7, 'background start, end, early end, TaskStop', async (d) => {
    const notify = (id: string, status: string) =>
      d.fire('prompt.submit', {
        text: `<task-notification><task-id>${id}</task-id><status>${status}</status><summary>s</summary></task-notification>`,
        wait: false,
        origin: { kind: 'task-notification' },
      })
    const seen: string[] = []
    const look = async () => {
      const s = (await output(d)).snapshot?.signals as Record<string, { value: string }>
      seen.push(`${s.background?.value ?? ''}/${s.background_proc?.value ?? ''}`)
    }
    await turn(d, async () => {
      await call(d, 'Bash', 'tu-1', { backgroundTaskId: 'bg1' })
      await call(d, 'Agent', 'tu-2', { status: 'async_launched', agentId: 'ag1' })
      await look()
    })
    await notify('ag1', 'Completed')
    await look()
    await notify('bg2', 'killed')
    await turn(d, async () => {
      await call(d, 'Bash', 'tu-3', { backgroundTaskId: 'bg2' })
      await look()
      await call(d, 'TaskStop', 'tu-4', { message: 'stopped' }, undefined, { task_id: 'bg1' })
      await look()
    })
    expect(seen).toEqual(['1/1', '/1', '/1', '/'])
  }),
  afterStart(8, 'stale drafts and suggestions', { needs: ['prompt-box'] }, async (d) => {
    const edit = (text: string, core?: () => unknown) =>
      d.fire(
        'prompt.edit',
        { origin: { kind: 'composer' }, text, cursor: 0, start: 0, end: 0, inputText: text },
        core ?? (() => ({ text, cursor: 0 })),
      )
    const suggest = (core: () => unknown) =>
      d.fire('prompt.suggest', { text: 'SUGGESTION', origin: { kind: 'suggestion' } }, core)
    await edit('typing')
    expect(signal(await output(d), 'draft')).toBe('1')
    // an edit whose next resolves after a submit
    const slow = deferred<unknown>()
    const pending = edit('more', () => slow.promise)
    await d.fire('prompt.submit', { text: 'more', wait: true, origin: { kind: 'composer' } })
    slow.resolve({ text: 'more', cursor: 4 })
    await pending
    expect(signal(await output(d), 'draft')).toBe('')
    await suggest(() => ({ isShown: true }))
    expect(signal(await output(d), 'suggest')).toBe('1')
    await d.fire('turn.start', { text: 'more', turnId: 't-8' })
    expect(signal(await output(d), 'suggest')).toBe('')
    await d.fire('turn.complete', {
      answer: '',
      durationMs: 1,
      isAborted: false,
      turnId: 't-8',
      reason: 'answer',
    })
    // a suggestion whose next resolves after an edit that leaves text
    const late = deferred<unknown>()
    const shown = suggest(() => late.promise)
    await edit('x')
    late.resolve({ isShown: true })
    await shown
    expect(signal(await output(d), 'suggest')).toBe('')
    await edit('   ', () => ({ text: '   ', cursor: 3 }))
    expect(signal(await output(d), 'draft')).toBe('')
  }),
  afterStart(9, 'quota and context moves', async (d) => {
    const measure = (ctx: number, fiveHour: number) =>
      d.fire('session.measure', {
        context: { percent: ctx, tokens: 100, window: 1000 },
        rateLimits: [
          { kind: 'five_hour', percentUsed: fiveHour },
          { kind: 'seven_day', percentUsed: 3.2 },
        ],
        changed: ['context'],
      })
    await measure(43.4, 12)
    await measure(43.4, 12)
    await measure(51, 12)
    await measure(Number.NaN, 20_000)
    await d.beat(30_000) // the log is written in batches (R7)
    const out = await output(d)
    expect(signalsOf(out)).toEqual([
      'quota_5h=12',
      'quota_7d=3',
      'context=43',
      'context=51',
      'quota_5h=9999',
      'context=',
    ])
  }),
  afterStart(10, 'a heartbeat', { needs: ['host-facts'], setup: { startedAt: 'not yet' } }, async (d) => {
    const before = await output(d)
    expect(before.snapshot?.session_started_ms).toBeNull()
    await d.fire('classic.Notification', { message: 'secret', notification_type: 'permission_prompt' })
    const mid = await output(d)
    expect(mid.log.some((l) => l.kind === 'signal')).toBe(false) // batched, not written on every change
    await d.beat(30_000)
    const after = await output(d)
    expect(Number(after.snapshot?.heartbeat_ms)).toBeGreaterThan(Number(before.snapshot?.heartbeat_ms))
    expect(signalsOf(after)).toEqual(['notice=permission_prompt'])
  }),
  afterStart(11, 'slow and hanging ends', { needs: ['faults'] }, async (d) => {
    await turn(d, async () => {})
    d.faults?.writeDelayMs(200)
    await d.fire('classic.StopFailure', { error: 'rate_limit', error_details: 'x' })
    let atNext: Output | null = null
    await d.fire('session.end', { reason: 'prompt_input_exit', sessionId: 'session-a1' }, async (e) => {
      d.faults?.writeDelayMs(0)
      const files = await d.files()
      atNext = { snapshot: JSON.parse(files['session-a1.json']), log: [], previous: [], names: [] }
      return e
    })
    expect(atNext).toMatchObject({ snapshot: { state: 'ended' } })
    d.faults?.hang(true)
    d.setSessionId('session-h')
    await d.fire('turn.start', { text: 'x', turnId: 't-h' })
    const began = Date.now()
    await d.fire('session.end', { reason: 'other', sessionId: 'session-h' })
    expect(Date.now() - began).toBeLessThan(1_500)
  }),
  {
    id: 12,
    title: 'every $ call throwing',
    needs: ['throwing'],
    setup: { throwing: true },
    async run(d) {
      const results: unknown[] = []
      results.push(await start(d))
      await turn(d, async (turnId) => {
        results.push(
          (
            await d.step({ turnId, index: 0, model: 'm', messageCount: 1 }, ['c1', 'c2'], {
              usage: usage(1, 1),
            })
          ).chunks,
        )
        results.push(
          await call(d, 'Bash', 'tu-1', { stdout: 'y' }, () => ask(d, 'Bash', 'tu-1').then(() => {})),
        )
      })
      results.push(await d.fire('session.end', { reason: 'other', sessionId: 'x' }))
      expect(results).toEqual([
        { cwd: '/work/project' },
        ['c1', 'c2'],
        { result: { stdout: 'y' }, text: 'ok', ref: 'tu-1' },
        { reason: 'other', sessionId: 'x' },
      ])
      expect(d.allWrites()).toEqual([])
      expect(d.uiCalls()).toBe(0)
    },
  },
  afterStart(13, 'no folder', { setup: { outputDir: 'relative/folder' } }, async (d) => {
    await turn(d, async () => {
      await call(d, 'Bash', 'tu-1', {})
    })
    await d.beat(30_000)
    await d.fire('session.end', { reason: 'other', sessionId: 'session-a1' })
    expect(d.allWrites()).toEqual([])
  }),
  afterStart(14, 'log rollover', { needs: ['limits'], setup: { logCapChars: 600 } }, async (d) => {
    let rolled = 0
    for (let i = 0; i < 8; i++) {
      await d.settle()
      const before = await d.files()
      await turn(d, async () => {})
      await d.settle()
      const after = await d.files()
      if (after['session-a1.jsonl.1'] === before['session-a1.jsonl.1']) continue
      rolled++
      expect(after['session-a1.jsonl.1']).toBe(before['session-a1.jsonl'])
      expect(after['session-a1.jsonl'].length).toBeLessThanOrEqual(600)
    }
    expect(rolled).toBeGreaterThan(1)
  }),
  afterStart(15, 'reopening after /clear', { needs: ['host-facts'] }, async (d) => {
    await turn(d, async () => {})
    await d.fire('session.end', { reason: 'clear', sessionId: 'session-a1' })
    await d.fire('tool.call', { tool: 'Bash', tool_use_id: 'stray' }) // a stray event revives nothing
    d.setSessionId('session-b2')
    await d.fire('turn.start', { text: 'again', turnId: 'session-b2:1' })
    await d.beat(30_000)
    const old = await output(d, 'session-a1')
    const fresh = await output(d, 'session-b2')
    expect(old.snapshot?.state).toBe('ended')
    expect(signalsOf(old).at(-1)).toBe('session_end=clear')
    expect(fresh.snapshot).toMatchObject({
      session_id: 'session-b2',
      state: 'working',
      cwd: '/work/project',
    })
    expect(statesOf(fresh)).toEqual(['idle', 'working'])
  }),
  afterStart(16, 'privacy canaries', async (d) => {
    await d.fire('prompt.edit', {
      origin: { kind: 'composer' },
      text: 'CANARY-draft',
      cursor: 0,
      start: 0,
      end: 0,
      inputText: 'CANARY-draft',
    })
    await d.fire('prompt.suggest', { text: 'CANARY-suggestion', origin: { kind: 'suggestion' } }, () => ({
      isShown: true,
    }))
    await d.fire(
      'command.run',
      { command: 'review', args: 'CANARY-args', origin: {}, presentation: {} },
      () => ({ text: 'CANARY-command-output' }),
    )
    await d.fire('prompt.submit', { text: 'CANARY-prompt', wait: true, origin: { kind: 'sdk' } })
    await d.fire('turn.start', { text: 'CANARY-prompt', turnId: 't-16' })
    await d.fire('tool.call', { tool: 'Bash', tool_use_id: 'tu-1', command: 'echo CANARY-input' }, () => ({
      result: { stdout: 'CANARY-output' },
      text: 'CANARY-output',
    }))
    await d.fire('classic.Notification', {
      message: 'CANARY-notification',
      notification_type: 'idle_prompt',
    })
    await d.fire('classic.StopFailure', {
      error: 'server_error',
      error_details: 'CANARY-error',
      last_assistant_message: 'CANARY-answer',
    })
    await d.fire('prompt.submit', {
      text: '<task-notification><task-id>t</task-id><status>completed</status><summary>CANARY-task</summary></task-notification>',
      wait: false,
      origin: { kind: 'task-notification' },
    })
    await d.fire('turn.complete', {
      answer: 'CANARY-answer',
      refusal: 'CANARY-refusal',
      durationMs: 1,
      isAborted: false,
      turnId: 't-16',
      reason: 'answer',
    })
    await d.fire('session.end', { reason: 'other', sessionId: 'session-a1' })
    const written = Object.values(await d.files()).join('')
    expect(written.length).toBeGreaterThan(200)
    expect(written).not.toContain('CANARY')
    expect(written).toContain('"command"')
  }),
]
