// The model's streamed deltas, re-cut so that a secret split across two of them is redacted like any
// other. Each `assistant/chunk` line of `tack run --json`, each line of a JSONL export and each chunk the
// library hands out is redacted on its own; a key the model repeats can arrive as `sk-pro` + `j-1234…`,
// and neither part holds the whole value the redactor looks for. So a text chunk waits for the event
// after it: when that is the next delta of the same text, the chunk is given what it can show — its
// text redacted, less the end that begins a secret (`openTail`) — and that end moves to the next delta;
// when the stream ends (another stream's delta, the step's `finish`, its message, its end), the chunk is
// given all of its text, redacted. An event logged in the middle of the stream that does not end it — a
// mod's `turn.step` hook that faults after forwarding a delta logs `mod/fault` there and forwards the
// rest — waits behind the chunk, its line kept in place: ending the text there would show a key cut
// exactly at that event. Every delta keeps its event (seq, turn, step); only where the text is cut
// between them moves, and the deltas still join into the answer's text, redacted
// (docs/decisions/0395-split-secrets-in-streams.md).
import type { SecretRedactor } from '@tack/kernel'
import type { SessionEvent, StreamChunk } from '@tack/session'

/** An event as it is to be shown, beside the logged one it stands for. */
export interface Recut {
  readonly original: SessionEvent
  readonly event: SessionEvent
}

interface Held {
  readonly original: SessionEvent<'assistant/chunk'>
  /** The stream it belongs to: one answer text, one reasoning text or one call's arguments, of a step. */
  readonly key: string
  /** Its text not yet shown: the end the chunk before held back, then its own delta. */
  readonly text: string
}

/**
 * The events that end every text a step streams. Any other event logged while a delta waits (a fault,
 * a hook's record) is not an end: it waits behind the delta. A step always logs `step/end` (in a
 * `finally`), so nothing waits past its step.
 */
const STREAM_ENDS: ReadonlySet<string> = new Set([
  'assistant/message',
  'step/end',
  'step/start',
  'turn/end',
  'turn/start',
])

export class ChunkRedaction {
  readonly #redact: SecretRedactor
  #held: Held | undefined
  /** Events logged after the waiting delta that did not end its text: shown after it, in log order. */
  #behind: SessionEvent[] = []

  constructor(redact: SecretRedactor) {
    this.#redact = redact
  }

  /** The events that can be shown once `e` is logged, in log order: a text chunk waits for the next. */
  push(e: SessionEvent): Recut[] {
    const streamed = textOf(e)
    if (streamed === undefined) {
      if (this.#held && e.type !== 'assistant/chunk' && !STREAM_ENDS.has(e.type)) {
        this.#behind.push(e)
        return []
      }
      return [...this.end(), { original: e, event: e }]
    }
    const held = this.#held
    if (held?.key !== streamed.key) {
      const ended = this.end()
      this.#held = { original: e as SessionEvent<'assistant/chunk'>, key: streamed.key, text: streamed.text }
      return ended
    }
    const [now, open] = this.#shownSoFar(held.text)
    this.#held = {
      original: e as SessionEvent<'assistant/chunk'>,
      key: streamed.key,
      text: open + streamed.text,
    }
    return [{ original: held.original, event: withText(held.original, now) }, ...this.#takeBehind()]
  }

  /**
   * For a view of a log whose stream has not ended yet: the waiting chunk as far as it can be shown now
   * (its text redacted, less an end that may begin a secret), then the events waiting behind it, which
   * are final as they are. Everything keeps waiting. Empty when nothing waits.
   */
  pending(): Recut[] {
    const held = this.#held
    if (!held) return []
    const [now] = this.#shownSoFar(held.text)
    return [
      { original: held.original, event: withText(held.original, now) },
      ...this.#behind.map((e) => ({ original: e, event: e })),
    ]
  }

  /** The waiting chunk with all its text, redacted, and what waits behind it: the output or the log ends. */
  end(): Recut[] {
    const held = this.#held
    if (!held) return []
    this.#held = undefined
    return [
      { original: held.original, event: withText(held.original, this.#redact(held.text)) },
      ...this.#takeBehind(),
    ]
  }

  /** `text` redacted, split where an end that may begin a secret starts: what shows now, what waits. */
  #shownSoFar(text: string): [string, string] {
    const shown = this.#redact(text)
    const cut = shown.length - this.#redact.openTail(shown)
    return [shown.slice(0, cut), shown.slice(cut)]
  }

  #takeBehind(): Recut[] {
    const behind = this.#behind.map((e) => ({ original: e, event: e }))
    this.#behind = []
    return behind
  }
}

/** Every event of `events`, chunks re-cut, as one finished output shows them (an export). */
export function recutAll(events: readonly SessionEvent[], redact: SecretRedactor): SessionEvent[] {
  const recut = new ChunkRedaction(redact)
  return [...events.flatMap((e) => recut.push(e)), ...recut.end()].map((r) => r.event)
}

/**
 * The stream and the text of a delta; undefined for any other event. The store checks only that a
 * chunk's payload is an object (an imported file can hold any), so a chunk without a string text is
 * not a delta here: it is shown as it is (still redacted as a line), never a crash.
 */
function textOf(e: SessionEvent): { key: string; text: string } | undefined {
  if (e.type !== 'assistant/chunk') return undefined
  const { turn, step, chunk } = (e as SessionEvent<'assistant/chunk'>).data
  const delta = (chunk ?? {}) as Partial<Record<string, unknown>>
  if ((delta.type === 'text-delta' || delta.type === 'reasoning-delta') && typeof delta.text === 'string')
    return { key: `${turn}/${step}/${delta.type}`, text: delta.text }
  if (delta.type === 'tool-call-delta' && typeof delta.argumentsDelta === 'string')
    return { key: `${turn}/${step}/call/${String(delta.callId)}`, text: delta.argumentsDelta }
  return undefined
}

function withText(e: SessionEvent<'assistant/chunk'>, text: string): SessionEvent {
  const chunk: StreamChunk = e.data.chunk
  const next: StreamChunk =
    chunk.type === 'tool-call-delta'
      ? { ...chunk, argumentsDelta: text }
      : chunk.type === 'text-delta' || chunk.type === 'reasoning-delta'
        ? { ...chunk, text }
        : chunk
  return { ...e, data: { ...e.data, chunk: next } } as SessionEvent
}
