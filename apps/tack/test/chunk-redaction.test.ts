// Streamed deltas re-cut so a secret split across them is redacted (apps/tack/src/chunk-redaction.ts,
// docs/decisions/0395-split-secrets-in-streams.md): with every way of cutting a text into deltas, the
// deltas shown join into the redacted text, every logged delta keeps its line, and no delta shows a secret.
import { secretRedactor } from '@tack/kernel'
import type { SessionEvent, StreamChunk } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { ChunkRedaction, recutAll } from '../src/chunk-redaction.ts'

const SECRET = 'sk-live-0123456789abcdef'
const OTHER = 'ghp_token_ABCDEFGHIJ'
const redact = secretRedactor([SECRET, OTHER])

let seq = 0
const event = (type: string, data: unknown): SessionEvent =>
  ({ type, seq: seq++, time: '2026-12-08T00:00:00.000Z', data }) as SessionEvent
const chunk = (c: StreamChunk, step = 1) => event('assistant/chunk', { turn: 1, step, chunk: c })
const text = (t: string, step = 1) => chunk({ type: 'text-delta', text: t }, step)

const textOf = (e: SessionEvent) => {
  const c = (e as SessionEvent<'assistant/chunk'>).data.chunk
  return c.type === 'text-delta' || c.type === 'reasoning-delta'
    ? c.text
    : c.type === 'tool-call-delta'
      ? c.argumentsDelta
      : ''
}
const chunks = (events: readonly SessionEvent[]) => events.filter((e) => e.type === 'assistant/chunk')

/** `full` cut at `cuts` (ascending positions). */
function cutAt(full: string, cuts: readonly number[]): string[] {
  const bounds = [0, ...cuts, full.length]
  return bounds.slice(1).map((end, i) => full.slice(bounds[i], end))
}

describe('ChunkRedaction', () => {
  test('every cut of a text holding two secrets: the deltas join into the redacted text, none shows a secret', () => {
    const full = `the key is ${SECRET}, and ${OTHER}!`
    const expected = redact(full)
    // every single cut, and every pair of cuts, of the text
    const cuttings: number[][] = []
    for (let a = 1; a < full.length; a++) {
      cuttings.push([a])
      for (let b = a + 1; b < full.length; b += 3) cuttings.push([a, b])
    }
    for (const cuts of cuttings) {
      const logged = [
        event('step/start', { turn: 1, step: 1 }),
        ...cutAt(full, cuts).map((t) => text(t)),
        event('step/end', { turn: 1, step: 1 }),
      ]
      const shown = recutAll(logged, redact)
      // one line per logged event, in the log's order
      expect(shown.map((e) => e.seq)).toEqual(logged.map((e) => e.seq))
      const deltas = chunks(shown).map(textOf)
      expect(deltas.join(''), `cuts ${cuts}`).toBe(expected)
      for (const delta of deltas) {
        expect(delta).not.toContain(SECRET)
        expect(delta).not.toContain(OTHER)
      }
    }
  })

  test("every cut of a call's arguments holding a secret JSON escapes: the arguments join redacted", () => {
    const quoted = 'pa"ss\\word-0123'
    const redactQuoted = secretRedactor([quoted, SECRET])
    const args = JSON.stringify({ command: `psql "password=${quoted}" -c 'select 1' # ${SECRET}` })
    const call = (argumentsDelta: string) => chunk({ type: 'tool-call-delta', callId: 'c1', argumentsDelta })
    for (let a = 1; a < args.length; a++)
      for (let b = a + 1; b <= args.length; b += 2) {
        const logged = [...cutAt(args, b < args.length ? [a, b] : [a]).map(call), event('step/end', {})]
        const joined = chunks(recutAll(logged, redactQuoted)).map(textOf).join('')
        expect(joined, `cuts ${a} ${b}`).toBe(redactQuoted(args))
      }
    expect(JSON.parse(redactQuoted(args)).command).toBe(
      `psql "password=[redacted]" -c 'select 1' # [redacted]`,
    )
  })

  test('a text delta waits for the event after it; a delta with nothing open is shown whole then', () => {
    const recut = new ChunkRedaction(redact)
    const first = text('plain words ')
    expect(recut.push(first)).toEqual([])
    const second = text(`then ${SECRET.slice(0, 6)}`)
    const [shownFirst] = recut.push(second)
    expect(shownFirst?.original).toBe(first)
    expect(textOf(shownFirst!.event)).toBe('plain words ')
    // what begins the secret waits; a view now shows the rest
    expect(textOf(recut.pending()[0]!.event)).toBe('then ')
    const third = text(`${SECRET.slice(6)} done`)
    expect(textOf(recut.push(third)[0]!.event)).toBe('then ')
    const ended = recut.push(event('assistant/message', {}))
    expect(ended.map((r) => r.original)).toEqual([
      third,
      expect.objectContaining({ type: 'assistant/message' }),
    ])
    expect(textOf(ended[0]!.event)).toBe('[redacted] done')
  })

  test("streams are kept apart: a tool call's arguments, another step, reasoning", () => {
    const args = JSON.stringify({ command: `curl -H "Authorization: ${SECRET}"` })
    const cut = args.indexOf(SECRET) + 5
    const logged = [
      chunk({ type: 'reasoning-delta', text: 'I will call' }),
      chunk({ type: 'tool-call-delta', callId: 'c1', name: 'bash', argumentsDelta: args.slice(0, cut) }),
      chunk({ type: 'tool-call-delta', callId: 'c1', argumentsDelta: args.slice(cut) }),
      chunk({ type: 'finish', reason: 'tool-calls' }),
      text(SECRET.slice(0, 10), 2),
      text(SECRET.slice(10), 2),
    ]
    const shown = recutAll(logged, redact)
    expect(shown.map((e) => e.seq)).toEqual(logged.map((e) => e.seq))
    expect(textOf(shown[0]!)).toBe('I will call')
    expect(textOf(shown[1]!) + textOf(shown[2]!)).toBe(redact(args))
    expect((shown[1] as SessionEvent<'assistant/chunk'>).data.chunk).toMatchObject({
      callId: 'c1',
      name: 'bash',
    })
    expect(shown[3]).toBe(logged[3])
    expect(textOf(shown[4]!) + textOf(shown[5]!)).toBe('[redacted]')
  })

  test('an event logged between two deltas of a text (a mod fault) waits behind the first, in its place', () => {
    const full = `the key is ${SECRET}.`
    for (let cut = 1; cut < full.length; cut++) {
      const logged = [
        text(full.slice(0, cut)),
        event('mod/fault', { mod: 'm', event: 'turn.step', kind: 'throw', message: 'x' }),
        text(full.slice(cut)),
        event('step/end', { turn: 1, step: 1 }),
      ]
      const shown = recutAll(logged, redact)
      expect(shown.map((e) => e.seq)).toEqual(logged.map((e) => e.seq))
      expect(shown[1]).toBe(logged[1])
      expect(chunks(shown).map(textOf).join(''), `cut ${cut}`).toBe(redact(full))
    }
    // live: the fault is shown with the delta before it, once the next delta shows how far that goes
    const recut = new ChunkRedaction(redact)
    const fault = event('mod/fault', {})
    expect(recut.push(text(`key ${SECRET.slice(0, 5)}`))).toEqual([])
    expect(recut.push(fault)).toEqual([])
    expect(recut.pending().map((r) => r.original)).toEqual([expect.anything(), fault])
    expect(textOf(recut.pending()[0]!.event)).toBe('key ')
    const next = recut.push(text(SECRET.slice(5)))
    expect(next.map((r) => r.original.type)).toEqual(['assistant/chunk', 'mod/fault'])
    expect(textOf(recut.end()[0]!.event)).toBe('[redacted]')
  })

  test('a chunk the log holds in another shape (an imported file) is shown as it is, not a crash', () => {
    // the store checks only that a chunk's payload is an object: `tack sessions import` takes any
    const odd = [
      event('assistant/chunk', { turn: 1, step: 1 }),
      event('assistant/chunk', { turn: 1, step: 1, chunk: null }),
      chunk({ type: 'text-delta' } as unknown as StreamChunk),
      chunk({ type: 'text-delta', text: 5 } as unknown as StreamChunk),
      chunk({ type: 'tool-call-delta', callId: 'c' } as unknown as StreamChunk),
    ]
    for (const e of odd) {
      const logged = [text(SECRET.slice(0, 9)), e, text(SECRET.slice(9)), text('.')]
      const shown = recutAll(logged, redact)
      expect(shown.map((s) => s.seq)).toEqual(logged.map((l) => l.seq))
      expect(shown[1]).toBe(e)
    }
  })

  test('the logged events are never changed', () => {
    const logged = [text(SECRET.slice(0, 8)), text(SECRET.slice(8))]
    const before = JSON.stringify(logged)
    recutAll(logged, redact)
    expect(JSON.stringify(logged)).toBe(before)
  })
})
