// CP-3: the kept tail never separates a tool call from its result.
import { Session } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { planCompaction } from '../src/index.ts'

const blocks = (text: string) => [{ type: 'text' as const, text }]
const USER = { kind: 'user' as const }

/** One `read` call block per id. */
const readCalls = (...ids: string[]) =>
  ids.map((callId) => ({
    type: 'tool-call' as const,
    callId,
    name: 'read',
    arguments: `{"path":"${callId}"}`,
  }))

/** user(long), assistant, user, assistant calling two tools, then their two long results. */
function historyEndingInToolExchange(resultChars: number): Session {
  const s = new Session({ header: { version: 1, id: 'r', createdAt: new Date(0).toISOString(), cwd: '/' } })
  s.append('user/message', { content: blocks('u'.repeat(8000)), source: USER })
  s.append('assistant/message', { turn: 1, step: 1, content: blocks('ok'), finishReason: 'stop' })
  s.append('user/message', { content: blocks('read both'), source: USER })
  s.append('assistant/message', {
    turn: 2,
    step: 1,
    content: readCalls('c1', 'c2'),
    finishReason: 'tool-calls',
  })
  s.append('tool/result', {
    callId: 'c1',
    name: 'read',
    content: blocks('a'.repeat(resultChars)),
    isError: false,
  })
  s.append('tool/result', {
    callId: 'c2',
    name: 'read',
    content: blocks('b'.repeat(resultChars)),
    isError: false,
  })
  return s
}

describe('CP-3 retention', () => {
  test('CP-3 a history ending in a long tool exchange keeps the whole exchange when part of it fits', () => {
    const s = historyEndingInToolExchange(2000)
    // 1000 tokens hold the last result (about 505) but not both: the cut moves back before the call.
    const plan = planCompaction(s, 1000, 4)
    const surface = s.surface()
    expect(plan).toMatchObject({ fromSeq: surface[0].seq, toSeq: surface[2].seq, summarised: 3, retained: 3 })
  })

  test('CP-3 … and none of it when not even the last result fits', () => {
    const s = historyEndingInToolExchange(8000)
    const plan = planCompaction(s, 1000, 4)
    expect(plan).toMatchObject({ summarised: 6, retained: 0 })
  })

  test('CP-3 for every budget the cut is balanced (no call separated from its result)', () => {
    const s = historyEndingInToolExchange(2000)
    const surface = s.surface()
    for (let retain = 0; retain <= 4000; retain += 50) {
      const plan = planCompaction(s, retain, 4)
      if (!plan) continue
      expect(s.toolPairingBalancedAfter(plan.toSeq)).toBe(true)
      const next = surface[plan.summarised]
      if (next) expect(s.toolPairingBalancedBefore(next.seq)).toBe(true)
    }
  })

  test('CP-3 nothing to summarise when the whole surface fits the kept tail', () => {
    expect(planCompaction(historyEndingInToolExchange(100), 20000, 4)).toBeUndefined()
  })
})
