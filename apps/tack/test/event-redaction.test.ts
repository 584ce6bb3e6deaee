// The library's events as it hands them out (apps/tack/src/library/redaction.ts): `session.events()` is
// called again and again on a log that only grows (a client redrawing after each streamed event), so a
// call re-cuts only the events logged since the last one — re-cutting the whole log each time made every
// call cost the redactor's work on every delta of the session (~50× the call before deltas were re-cut).
import { secretRedactor } from '@tack/kernel'
import type { SessionEvent } from '@tack/session'
import { expect, test } from 'vitest'
import { EventRedaction } from '../src/library/redaction.ts'

const SECRET = 'sk-live-0123456789abcdef'

const delta = (seq: number, text: string): SessionEvent =>
  Object.freeze({
    type: 'assistant/chunk',
    seq,
    time: '2026-12-08T00:00:00.000Z',
    data: { turn: 1, step: 1, chunk: { type: 'text-delta', text } },
  }) as SessionEvent

const textOf = (e: SessionEvent) => (e as SessionEvent<'assistant/chunk'>).data.chunk as { text?: string }

test('a later events() call re-cuts only what was logged since, and shows what a fresh read shows', () => {
  const inner = secretRedactor([SECRET])
  let calls = 0
  const counted = Object.assign(
    (text: string) => {
      calls++
      return inner(text)
    },
    {
      openTail: (text: string) => {
        calls++
        return inner.openTail(text)
      },
    },
  )
  const redaction = new EventRedaction(counted)
  const log: SessionEvent[] = []
  for (let i = 0; i < 2000; i++) log.push(delta(i, i === 1000 ? `key ${SECRET.slice(0, 7)}` : `w${i} `))
  log.push(delta(2000, `${SECRET.slice(7)} end`))
  redaction.events(log)
  calls = 0
  const again = redaction.events(log)
  // the waiting delta is shown as far as it can be (a few calls), nothing else is re-cut
  expect(calls).toBeLessThan(20)
  log.push(delta(2001, 'more'))
  calls = 0
  const grown = redaction.events(log)
  expect(calls).toBeLessThan(40)
  // the same objects for the same events, and what a fresh redaction of the whole log shows
  expect(grown.slice(0, 2000)).toEqual(again.slice(0, 2000))
  expect(grown[5]).toBe(again[5])
  const fresh = new EventRedaction(inner).events(log)
  expect(grown).toEqual(fresh)
  expect(grown.map((e) => textOf(e).text).join('')).not.toContain(SECRET)
  expect(grown).toHaveLength(log.length)
})

test('a log that is not the one seen before (another session, a shorter log) is re-cut from its start', () => {
  const redact = secretRedactor([SECRET])
  const redaction = new EventRedaction(redact)
  const a = [delta(0, SECRET.slice(0, 5)), delta(1, SECRET.slice(5)), delta(2, '.')]
  expect(redaction.events(a).map((e) => textOf(e).text)).toEqual(['', '[redacted]', '.'])
  const b = [delta(0, 'other '), delta(1, 'text')]
  expect(redaction.events(b).map((e) => textOf(e).text)).toEqual(['other ', 'text'])
  expect(redaction.events(a.slice(0, 2)).map((e) => textOf(e).text)).toEqual(['', '[redacted]'])
})
