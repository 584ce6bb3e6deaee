// What the library hands out is output: secrets never reach it (90-quality security 1), as they never reach
// `tack run --json`'s lines (io.ts). Events, results, summaries and approval requests are copied with
// every string — keys included, as the CLI redacts whole JSON lines — passed through the CLI's redactor
// (secrets.ts); the log and the objects the session itself uses are never touched
// (docs/decisions/0380-library-events-redacted.md).

import type { SecretRedactor } from '@tack/kernel'
import type { SessionEvent } from '@tack/session'
import { ChunkRedaction, type Recut } from '../chunk-redaction.ts'

type Redact = (text: string) => string

/**
 * `value` with secrets redacted from every string in it: arrays and plain objects are copied where
 * something changed (frozen where the original was), the original returned where nothing did.
 */
export function redactedCopy<T>(value: T, redact: Redact): T {
  return copyOf(value, redact) as T
}

function copyOf(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) {
    const out = value.map((item) => copyOf(item, redact))
    return out.some((item, i) => item !== value[i]) ? frozenLike(value, out) : value
  }
  if (!isPlainObject(value)) return value
  const entries = Object.entries(value)
  const out = entries.map(([key, item]) => [redact(key), copyOf(item, redact)] as const)
  if (out.every(([key, item], i) => key === entries[i][0] && item === entries[i][1])) return value
  // fromEntries defines own properties: a logged `__proto__` key stays data, never a prototype.
  return frozenLike(value, Object.fromEntries(out))
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function frozenLike<T extends object>(original: object, copy: T): T {
  return Object.isFrozen(original) ? Object.freeze(copy) : copy
}

/**
 * A session's events as the library hands them out: each redacted once and remembered, so the turn's
 * stream and `session.events()` give the same object for the same event. Streamed text deltas are re-cut
 * first, as `tack run --json`'s are, so a secret split across two is redacted (chunk-redaction.ts); a
 * delta is final once the event after it is logged.
 */
export class EventRedaction {
  readonly #redact: SecretRedactor
  readonly #copies = new WeakMap<object, object>()
  /** The log `events` last re-cut: its re-cutter, how many events it has seen, the last, what is final. */
  #log: { recut: ChunkRedaction; count: number; last: unknown; shown: object[] } | undefined

  constructor(redact: SecretRedactor) {
    this.#redact = redact
  }

  /**
   * A turn's stream: give it each event as it is logged, in order; it answers the events that can be
   * shown now (a text delta waits for the event after it).
   */
  stream<E extends object>(): (event: E) => E[] {
    const recut = new ChunkRedaction(this.#redact)
    return (event) => recut.push(event as unknown as SessionEvent).map((r) => this.#final(r) as E)
  }

  /** Every event of a log; a delta still streaming shows what it can so far and is not remembered. */
  events<E extends object>(events: readonly E[]): readonly E[] {
    // A session's log only grows, and `session.events()` is asked again and again: only the events logged
    // since the last call are re-cut. Any other log (shorter, or not holding the last event seen there)
    // is re-cut from its start.
    let log = this.#log
    if (!log || events.length < log.count || (log.count > 0 && events[log.count - 1] !== log.last))
      log = this.#log = { recut: new ChunkRedaction(this.#redact), count: 0, last: undefined, shown: [] }
    for (let i = log.count; i < events.length; i++)
      for (const r of log.recut.push(events[i] as unknown as SessionEvent)) log.shown.push(this.#final(r))
    log.count = events.length
    log.last = events.at(-1)
    const shown = [...log.shown]
    // The waiting delta is shown as far as it can be and not remembered; what waits behind it is final.
    const [waiting, ...behind] = log.recut.pending()
    if (waiting) shown.push(redactedCopy(waiting.event, this.#redact), ...behind.map((r) => this.#final(r)))
    return Object.freeze(shown as unknown as E[])
  }

  #final(r: Recut): object {
    let copy = this.#copies.get(r.original)
    if (copy === undefined) {
      copy = redactedCopy(r.event, this.#redact)
      this.#copies.set(r.original, copy)
    }
    return copy
  }
}
