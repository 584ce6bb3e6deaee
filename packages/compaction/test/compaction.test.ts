// CP-1, CP-2, CP-4, CP-5 (in process), CP-6 and the "context too long" retry, through the real loop with
// the scripted model. Window 4096 (the smallest allowed), threshold 0.8: compaction at 3276 tokens.
import { error, type ScriptEntry, text, toolCalls } from '@tack/agent/testing'
import type { SessionStartSource } from '@tack/agent'
import { renderContextEnvelope, surfaceOf } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { COMPACTION_SOURCE, SUMMARY_HEADING } from '../src/index.ts'
import {
  compactionAgent,
  eventsOfType,
  noteSteps,
  pairedProperly,
  summaryTexts,
  textOf,
  user,
} from './helpers.ts'

const SMALL = { contextWindow: 4096, retainTokens: 1000 }

/** Six 1500-character notes in a 4096-token window, compacted only on demand. */
function sixNotes(
  summaries: readonly ScriptEntry[],
  more: { config?: Record<string, unknown>; after?: ScriptEntry[] } = {},
) {
  return compactionAgent({
    script: [...noteSteps(6), ...(more.after ?? [])],
    config: { ...SMALL, auto: false, ...(more.config ?? {}) },
    noteChars: 1500,
    summaries,
  })
}

describe('CP-1 pressure', () => {
  test('CP-1 a configured charsPerToken: 1 triggers compaction on a history that the default does not', async () => {
    const byDefault = await compactionAgent({
      script: noteSteps(10),
      config: SMALL,
      summaries: summaryTexts(5),
    })
    expect((await byDefault.agent.send(user('take notes'))).reason).toEqual({ kind: 'completed' })
    expect(eventsOfType(byDefault.events(), 'compact/start')).toHaveLength(0)
    await byDefault.dispose()

    const dense = await compactionAgent({
      script: noteSteps(10),
      config: { ...SMALL, charsPerToken: 1 },
      summaries: summaryTexts(5),
    })
    expect((await dense.agent.send(user('take notes'))).reason).toEqual({ kind: 'completed' })
    const starts = eventsOfType(dense.events(), 'compact/start')
    expect(starts.length).toBeGreaterThan(0)
    expect(starts[0].data).toMatchObject({ trigger: 'auto' })
    expect((starts[0].data as { pressure: number }).pressure).toBeGreaterThanOrEqual(3276)
    await dense.dispose()
  })

  test('CP-1 the provider-reported input tokens replace the estimate', async () => {
    const script = (usage: boolean) => [
      toolCalls([{ name: 'note', args: { n: 1 } }]),
      toolCalls([{ name: 'note', args: { n: 2 } }]),
      toolCalls(
        [{ name: 'note', args: { n: 3 } }],
        usage ? { usage: { inputTokens: 3300, outputTokens: 10 } } : {},
      ),
      text('done'),
    ]
    const estimated = await compactionAgent({ script: script(false), config: SMALL, noteChars: 1500 })
    await estimated.agent.send(user('go'))
    expect(eventsOfType(estimated.events(), 'compact/start')).toHaveLength(0)
    await estimated.dispose()

    const reported = await compactionAgent({
      script: script(true),
      config: SMALL,
      noteChars: 1500,
      summaries: summaryTexts(1),
    })
    expect((await reported.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
    const [start] = eventsOfType(reported.events(), 'compact/start')
    expect((start.data as { pressure: number }).pressure).toBeGreaterThanOrEqual(3310)
    await reported.dispose()
  })
})

describe('CP-2 threshold and triggers', () => {
  test('CP-2 auto: false suppresses only the automatic run; ctx.compact() still compacts an idle session', async () => {
    const t = await compactionAgent({
      script: noteSteps(10),
      config: { ...SMALL, charsPerToken: 1, auto: false },
      summaries: summaryTexts(1),
    })
    expect((await t.agent.send(user('take notes'))).reason).toEqual({ kind: 'completed' })
    expect(eventsOfType(t.events(), 'compact/start')).toHaveLength(0)
    const result = await t.ctx.compact(t.agent)
    expect(result.compacted).toBe(true)
    expect(eventsOfType(t.events(), 'compact/start').map((e) => e.data)).toMatchObject([
      { trigger: 'manual' },
    ])
    await t.dispose()
  })

  test('CP-2 ctx.compact() during a turn runs before the next step', async () => {
    const t = await compactionAgent({
      script: noteSteps(4),
      config: { ...SMALL, auto: false },
      noteChars: 2000,
      summaries: summaryTexts(1),
    })
    let asked: Promise<unknown> | undefined
    let results = 0
    t.agent.session.subscribe((e) => {
      if (e.type === 'tool/result' && ++results === 3) asked = t.ctx.compact(t.agent)
    })
    await t.agent.send(user('go'))
    expect(await asked).toMatchObject({ compacted: true })
    const types = t.types()
    const start = types.indexOf('compact/start')
    // after step 3's end, before step 4's start
    expect(types.slice(0, start).filter((x) => x === 'step/start')).toHaveLength(3)
    expect(types[types.indexOf('compact/end') + 1]).toBe('step/start')
    await t.dispose()
  })
})

describe('CP-4 summary', () => {
  test('CP-4 the derived messages after compaction are [summary, retained tail]; the log keeps every event', async () => {
    const t = await sixNotes([text('the user asked for six notes; all were taken')])
    await t.agent.send(user('take six notes'))
    const before = t.events()
    const messagesBefore = t.agent.session.deriveMessages()
    const result = await t.ctx.compact(t.agent)
    if (!result.compacted) throw new Error(result.reason)
    const after = t.agent.session.deriveMessages()
    expect(after).toHaveLength(1 + result.retained)
    expect(after[0].role).toBe('user')
    expect(after[0].content).toEqual(
      renderContextEnvelope(COMPACTION_SOURCE, [
        { type: 'text', text: `${SUMMARY_HEADING}\n\nthe user asked for six notes; all were taken` },
      ]),
    )
    expect(after.slice(1)).toEqual(messagesBefore.slice(messagesBefore.length - result.retained))
    expect(pairedProperly(after)).toBe(true)
    // every original event is still there, unchanged
    expect(t.events().slice(0, before.length)).toEqual(before)
    const tail = t
      .events()
      .slice(before.length)
      .map((e) => e.type)
    expect(tail).toEqual(['compact/start', 'compact/summary', 'context/message', 'compact/end'])
    const [start, summary, replace, end] = t.events().slice(before.length)
    expect(start.data).toMatchObject({ fromSeq: result.fromSeq, toSeq: result.toSeq, trigger: 'manual' })
    expect(summary.data).toMatchObject({ text: 'the user asked for six notes; all were taken' })
    expect(replace.op).toEqual({ kind: 'replace', fromSeq: result.fromSeq, toSeq: result.toSeq })
    expect(end.data).toEqual({ ok: true })
    // the summary call was one request, bounded by maxTokens, with the transcript in it
    expect(t.summaries.requests).toHaveLength(1)
    expect(t.summaries.requests[0].config.maxTokens).toBe(4096)
    expect(textOf(t.summaries.requests[0].messages[0])).toContain('take six notes')
    await t.dispose()
  })

  test('CP-4 the next request starts with the summary', async () => {
    const t = await sixNotes([text('SUMMARY-TEXT')], { after: [text('second answer')] })
    await t.agent.send(user('take six notes'))
    await t.ctx.compact(t.agent)
    await t.agent.send(user('and now?'))
    const last = t.model.requests.at(-1)!
    expect(textOf(last.messages[0])).toContain('SUMMARY-TEXT')
    expect(textOf(last.messages.at(-1)!)).toBe('and now?')
    await t.dispose()
  })
})

describe('CP-5 crash safety (in process)', () => {
  test('CP-5 a failed summary (after compactionRetries) leaves the surface unchanged and says why', async () => {
    const t = await sixNotes([error('summary model down'), error('summary model down')], {
      config: { compactionRetries: 1 },
    })
    await t.agent.send(user('go'))
    const surface = t.agent.session.surface()
    const generation = t.agent.session.replaceGeneration
    const result = await t.ctx.compact(t.agent)
    expect(result).toMatchObject({ compacted: false })
    expect(t.summaries.requests).toHaveLength(2)
    expect(t.agent.session.surface()).toEqual(surface)
    expect(t.agent.session.replaceGeneration).toBe(generation)
    expect(eventsOfType(t.events(), 'compact/end').map((e) => e.data)).toMatchObject([
      { ok: false, error: expect.stringContaining('summary model down') },
    ])
    await t.dispose()
  })

  test('CP-5 a log cut anywhere before compact/end folds to the old surface', async () => {
    const t = await sixNotes(summaryTexts(1))
    await t.agent.send(user('go'))
    const old = t.agent.session.surface().map((e) => e.seq)
    await t.ctx.compact(t.agent)
    const events = t.events()
    const end = events.findIndex((e) => e.type === 'compact/end')
    const start = events.findIndex((e) => e.type === 'compact/start')
    // the replace sits after the summary, right before compact/end: any shorter log has the old surface
    for (let cut = start; cut < end - 1; cut++)
      expect(surfaceOf(events.slice(0, cut + 1)).map((e) => e.seq)).toEqual(old)
    expect(surfaceOf(events).map((e) => e.seq)).not.toEqual(old)
    await t.dispose()
  })
})

describe('CP-6 seams', () => {
  test('CP-6 agent/session-start fires with source compact after a compaction', async () => {
    const t = await sixNotes(summaryTexts(1))
    const sources: SessionStartSource[] = []
    t.ctx.on('agent/session-start', (_agent, source) => {
      sources.push(source)
    })
    await t.agent.send(user('go'))
    expect(sources).toEqual([])
    await t.ctx.compact(t.agent)
    expect(sources).toEqual(['compact'])
    await t.dispose()
  })
})

describe('context too long', () => {
  const TOO_LONG = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens."

  test('a CONTEXT_TOO_LONG step error triggers one compaction and one retry instead of ending the turn', async () => {
    const t = await compactionAgent({
      script: [
        ...noteSteps(4).slice(0, 4),
        error(TOO_LONG, { code: 'CONTEXT_TOO_LONG', status: 400 }),
        text('done'),
      ],
      config: { ...SMALL, auto: false },
      noteChars: 1500,
      summaries: [text('short summary')],
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(eventsOfType(t.events(), 'compact/start').map((e) => e.data)).toMatchObject([
      { trigger: 'context-too-long' },
    ])
    // the retried request starts with the summary
    expect(textOf(t.model.requests.at(-1)!.messages[0])).toContain('short summary')
    expect(pairedProperly(t.model.requests.at(-1)!.messages)).toBe(true)
    await t.dispose()
  })

  test('a CONTEXT_TOO_LONG right after the retry ends the turn with that error', async () => {
    const t = await compactionAgent({
      script: [
        ...noteSteps(4).slice(0, 4),
        error(TOO_LONG, { code: 'CONTEXT_TOO_LONG', status: 400 }),
        error(TOO_LONG, { code: 'CONTEXT_TOO_LONG', status: 400 }),
      ],
      config: { ...SMALL, auto: false },
      noteChars: 1500,
      summaries: [text('short summary')],
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'CONTEXT_TOO_LONG' })
    expect(eventsOfType(t.events(), 'compact/start')).toHaveLength(1)
    await t.dispose()
  })

  test('a later CONTEXT_TOO_LONG in the same turn, after steps that succeeded, is compacted again', async () => {
    const tooLong = () => error(TOO_LONG, { code: 'CONTEXT_TOO_LONG', status: 400 })
    const t = await compactionAgent({
      script: [...noteSteps(4).slice(0, 4), tooLong(), ...noteSteps(4).slice(0, 4), tooLong(), text('done')],
      config: { ...SMALL, auto: false },
      noteChars: 1500,
      summaries: summaryTexts(2),
    })
    expect((await t.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
    expect(eventsOfType(t.events(), 'compact/end').map((e) => e.data)).toEqual([{ ok: true }, { ok: true }])
    await t.dispose()
  })

  test('other step errors still end the turn', async () => {
    const t = await compactionAgent({
      script: [error('bad request', { code: 'HTTP_400', status: 400 })],
      config: SMALL,
    })
    expect((await t.agent.send(user('go'))).reason).toMatchObject({ kind: 'error', code: 'HTTP_400' })
    expect(eventsOfType(t.events(), 'compact/start')).toHaveLength(0)
    await t.dispose()
  })
})
