// What the library hands out is output: secrets never reach it (90-quality security 1), as they never reach
// `tack run --json`'s lines (io.ts). Events, results, summaries and approval requests are copied with
// every string — keys included, as the CLI redacts whole JSON lines — passed through the CLI's redactor
// (secrets.ts); the log and the objects the session itself uses are never touched
// (docs/decisions/0380-library-events-redacted.md).

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
 * stream and `session.events()` give the same object for the same event.
 */
export class EventRedaction {
  readonly #redact: Redact
  readonly #copies = new WeakMap<object, object>()

  constructor(redact: Redact) {
    this.#redact = redact
  }

  event<E extends object>(event: E): E {
    let copy = this.#copies.get(event)
    if (copy === undefined) {
      copy = redactedCopy(event, this.#redact)
      this.#copies.set(event, copy)
    }
    return copy as E
  }

  events<E extends object>(events: readonly E[]): readonly E[] {
    return Object.freeze(events.map((event) => this.event(event)))
  }
}
