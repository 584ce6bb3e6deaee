// Issue 12 acceptance: a scripted 200-step session stays under a small window through two compactions,
// and after each the derived messages are [summary, retained tail] with no split tool pair.
import { expect, test } from 'vitest'
import type { Message } from '@tack/session'
import { fixedChars, messageChars, tokensOf } from '../src/index.ts'
import { compactionAgent, noteSteps, pairedProperly, summaryTexts, user } from './helpers.ts'

const WINDOW = 16384
const RETAIN = 4000

test('a 200-step session stays under a 16k window through two compactions, [summary, tail] after each', async () => {
  const t = await compactionAgent({
    script: noteSteps(200),
    config: { contextWindow: WINDOW, retainTokens: RETAIN },
    summaries: summaryTexts(10),
  })
  // Right after each compaction: the derived messages, and how many nodes were kept.
  const after: Array<{ messages: readonly Message[]; retained: number; tail: readonly Message[] }> = []
  let before: readonly Message[] = []
  t.agent.session.subscribe((e, session) => {
    if (e.type === 'compact/start') before = session.deriveMessages()
    if (e.type === 'compact/end' && (e.data as { ok: boolean }).ok) {
      const messages = session.deriveMessages()
      const retained = messages.length - 1
      after.push({ messages, retained, tail: before.slice(before.length - retained) })
    }
  })
  const outcome = await t.agent.send(user('take two hundred notes'))
  expect(outcome.reason).toEqual({ kind: 'completed' })
  expect(t.model.requests).toHaveLength(201)

  expect(after.length).toBeGreaterThanOrEqual(2)
  for (const { messages, retained, tail } of after) {
    expect(messages[0].role).toBe('user')
    expect(JSON.stringify(messages[0].content)).toContain('summary')
    expect(messages.slice(1)).toEqual(tail)
    expect(retained).toBeGreaterThan(0)
    expect(pairedProperly(messages)).toBe(true)
  }
  // Every request the model saw fitted the window (estimated as the plugin does, at 4 chars a token).
  for (const request of t.model.requests) {
    const chars =
      fixedChars({ system: request.system ?? '', prefix: [], tools: request.tools ?? [] }) +
      request.messages.reduce((n, m) => n + messageChars(m), 0)
    expect(tokensOf(chars, 4)).toBeLessThan(WINDOW)
    expect(pairedProperly(request.messages)).toBe(true)
  }
  await t.dispose()
})
