// AL-23 at every moment after `send`: a cancel while a prompt is being admitted (`agent/prompt-submit`,
// where a slow UserPromptSubmit hook or a plugin may take seconds), or while it is sent but not yet
// taken into a turn, is honoured at once — the `send` settles `aborted`, no step runs, and the prompt
// is never recorded as admitted (docs/decisions/0195-cancel-during-admission.md).
import { describe, expect, test } from 'vitest'
import { createTestAgent, settlesWithin, text } from '@tack/agent/testing'
import type { Agent, PromptDecision } from '@tack/agent'
import { CANCELLED_BEFORE_ADMISSION } from '../src/admission.ts'
import { deferred, shape, textOf, user, waitForEvent } from './helpers.ts'

/** The time a cancelled `send` may take to settle; the listeners below would otherwise hold it forever. */
const PROMPTLY_MS = 1000

/** A prompt-submit listener that answers `allow` only once the turn's signal aborts (a hook run cut short). */
function untilTurnAborted(seen: AbortSignal[]) {
  return (agent: Agent): Promise<PromptDecision> => {
    const signal = agent.turnSignal
    if (!signal) throw new Error('admission ran without a turn signal')
    seen.push(signal)
    return new Promise((resolve) =>
      signal.addEventListener('abort', () => resolve({ action: 'allow' }), { once: true }),
    )
  }
}

describe('AL-23 cancel during admission', () => {
  test('a listener that waits for the abort: send settles aborted, it saw the abort, no step, prompt not admitted', async () => {
    const seen: AbortSignal[] = []
    const t = await createTestAgent({
      script: [text('never')],
      setup: (ctx) => ctx.on('agent/prompt-submit', untilTurnAborted(seen)),
    })
    const sent = t.agent.send(user('slow gate'))
    await waitForEvent(t.agent.session, (e) => e.type === 'turn/start')
    await new Promise((r) => setTimeout(r, 20))
    t.agent.cancel()
    const outcome = await settlesWithin(sent, PROMPTLY_MS)
    expect(outcome).toEqual({ turn: 1, reason: { kind: 'aborted' } })
    expect(seen).toHaveLength(1)
    expect(seen[0].aborted).toBe(true)
    expect(shape(t.events())).toEqual(['turn/start', 'prompt/blocked', 'turn/end'])
    const blocked = t.events().find((e) => e.type === 'prompt/blocked')
    expect(blocked?.data).toMatchObject({ reason: CANCELLED_BEFORE_ADMISSION, source: { kind: 'user' } })
    expect(textOf(blocked!)).toBe('slow gate')
    expect(t.model.requests).toHaveLength(0)
    expect(t.agent.status).toBe('idle')
    expect(t.statusViolations).toEqual([])
    await t.dispose()
  })

  test('a listener that does not settle does not hold the cancel; a queued prompt is dropped without a turn', async () => {
    const release = deferred<PromptDecision>()
    const t = await createTestAgent({
      script: [text('answered')],
      setup: (ctx) => {
        let calls = 0
        ctx.on('agent/prompt-submit', (_agent, _prompt, next) => (calls++ === 0 ? release.promise : next()))
      },
    })
    const first = t.agent.send(user('stuck'))
    await waitForEvent(t.agent.session, (e) => e.type === 'turn/start')
    const queued = t.agent.send(user('queued'))
    t.agent.cancel()
    const [o1, o2] = await settlesWithin(Promise.all([first, queued]), PROMPTLY_MS)
    expect(o1).toEqual({ turn: 1, reason: { kind: 'aborted' } })
    expect(o2).toEqual({ reason: { kind: 'aborted' } })
    expect(shape(t.events())).toEqual(['turn/start', 'prompt/blocked', 'turn/end'])
    // The agent stays usable: the next prompt passes the gate and completes.
    expect((await t.agent.send(user('again'))).reason).toEqual({ kind: 'completed' })
    expect(
      t
        .events()
        .filter((e) => e.type === 'user/message')
        .map(textOf),
    ).toEqual(['again'])
    // Its late answer changes nothing; disposal waits for it (below).
    release.resolve({ action: 'allow' })
    await t.dispose()
    expect(
      t
        .events()
        .filter((e) => e.type === 'user/message')
        .map(textOf),
    ).toEqual(['again'])
  })

  test('disposal waits for an admission the cancel left behind, so what it logs lands before the log closes', async () => {
    let loggedLate = false
    const t = await createTestAgent({
      setup: (ctx) =>
        ctx.on('agent/prompt-submit', (agent) => {
          const signal = agent.turnSignal!
          return new Promise<PromptDecision>((resolve) =>
            signal.addEventListener('abort', () =>
              // A hook run that takes a moment to die after its kill, then records its result.
              setTimeout(() => {
                agent.session.append('context/message', {
                  content: [{ type: 'text', text: 'late' }],
                  source: { kind: 'plugin', name: 'late' },
                })
                loggedLate = true
                resolve({ action: 'allow' })
              }, 50),
            ),
          )
        }),
    })
    const sent = t.agent.send(user('go'))
    await waitForEvent(t.agent.session, (e) => e.type === 'turn/start')
    t.agent.cancel()
    expect((await settlesWithin(sent, PROMPTLY_MS)).reason).toEqual({ kind: 'aborted' })
    expect(loggedLate).toBe(false)
    await t.dispose()
    expect(loggedLate).toBe(true)
    expect(shape(t.events())).toEqual(['turn/start', 'prompt/blocked', 'turn/end', 'context/message'])
  })

  test('the rest of a batch is recorded as not admitted; none of it reaches a request', async () => {
    const seen: AbortSignal[] = []
    const t = await createTestAgent({
      script: [text('never')],
      setup: (ctx) => {
        let calls = 0
        const wait = untilTurnAborted(seen)
        ctx.on('agent/prompt-submit', (agent, _prompt, next) => (calls++ === 1 ? wait(agent) : next()))
      },
    })
    const batch = [t.agent.send(user('one')), t.agent.send(user('two')), t.agent.send(user('three'))]
    await waitForEvent(t.agent.session, (e) => e.type === 'user/message')
    await new Promise((r) => setTimeout(r, 10))
    t.agent.cancel()
    const outcomes = await settlesWithin(Promise.all(batch), PROMPTLY_MS)
    for (const o of outcomes) expect(o).toEqual({ turn: 1, reason: { kind: 'aborted' } })
    expect(shape(t.events())).toEqual([
      'turn/start',
      'user/message',
      'prompt/blocked',
      'prompt/blocked',
      'turn/end',
    ])
    expect(t.model.requests).toHaveLength(0)
    await t.dispose()
  })

  test('user steering cut short at its drain is recorded as not admitted and the turn ends aborted', async () => {
    const seen: AbortSignal[] = []
    const t = await createTestAgent({
      script: [text('first answer'), text('never')],
      setup: (ctx) => {
        let calls = 0
        const wait = untilTurnAborted(seen)
        ctx.on('agent/prompt-submit', (agent, _prompt, next) => (calls++ === 1 ? wait(agent) : next()))
        // Steer while the first answer streams, so the stop drains it through the gate.
        let steered = false
        ctx.on('session/event', (_s, e) => {
          if (e.type !== 'assistant/chunk' || steered) return
          steered = true
          t.agent.steer(user('steer me'))
        })
      },
    })
    const sent = t.agent.send(user('go'))
    await waitForEvent(t.agent.session, (e) => e.type === 'assistant/message')
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5))
    t.agent.cancel()
    expect(await settlesWithin(sent, PROMPTLY_MS)).toEqual({ turn: 1, reason: { kind: 'aborted' } })
    const blocked = t.events().filter((e) => e.type === 'prompt/blocked')
    expect(blocked.map(textOf)).toEqual(['steer me'])
    expect(t.events().some((e) => e.type === 'steering/message')).toBe(false)
    expect(t.model.requests).toHaveLength(1)
    await t.dispose()
  })
})

describe('AL-23 cancel after send, before the turn starts', () => {
  test('a cancel in the same frame as send: no turn, send settles aborted, nothing logged', async () => {
    const t = await createTestAgent({ script: [text('never')] })
    const sent = t.agent.send(user('go'))
    expect(t.agent.status).toBe('running')
    t.agent.cancel()
    expect(await settlesWithin(sent, PROMPTLY_MS)).toEqual({ reason: { kind: 'aborted' } })
    expect(t.events()).toEqual([])
    expect(t.model.requests).toHaveLength(0)
    await t.agent.whenIdle()
    expect(t.agent.status).toBe('idle')
    expect(t.statusViolations).toEqual([])
    await t.dispose()
  })

  test('a cancel while the finished turn flushes drops the prompt queued for the next one', async () => {
    const t = await createTestAgent({
      script: [text('first'), text('never')],
      setup: (ctx) => {
        ctx.on('session/event', (_s, e) => {
          if (e.type === 'assistant/message') queued = t.agent.send(user('next'))
          if (e.type === 'turn/end') ended = true
        })
      },
    })
    let queued: Promise<unknown> | undefined
    let ended = false
    // Hold the end-of-turn flush, so the cancel lands between turn 1 and turn 2.
    const session = t.agent.session as { flush(): Promise<void> }
    const flush = session.flush.bind(session)
    let flushing: (() => void) | undefined
    session.flush = () =>
      !ended
        ? flush()
        : new Promise<void>((resolve) => {
            flushing = () => void flush().then(resolve)
          })
    const first = t.agent.send(user('one'))
    while (!flushing) await new Promise((r) => setTimeout(r, 5))
    expect(t.agent.status).toBe('running')
    expect(t.agent.turnSignal).toBeUndefined()
    t.agent.cancel()
    session.flush = flush
    flushing()
    expect(await first).toEqual({ turn: 1, reason: { kind: 'completed' } })
    expect(await settlesWithin(queued!, PROMPTLY_MS)).toEqual({ reason: { kind: 'aborted' } })
    expect(t.events().filter((e) => e.type === 'turn/start')).toHaveLength(1)
    expect(t.model.requests).toHaveLength(1)
    await t.dispose()
  })
})
