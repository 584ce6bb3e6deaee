// An in-memory SessionStore: the default store, and the reference the conformance suite is checked
// against. Every operation runs synchronously inside its promise, so each is atomic.
import { deepFreeze } from '@tack/kernel'
import { SessionEventError } from './errors.ts'
import {
  type Clock,
  type SessionEvent,
  type SessionHeader,
  type SessionSummary,
  systemClock,
} from './events.ts'
import { checkJson } from './json.ts'
import { openTurnAt, recoverLog } from './recover.ts'
import { validateSessionHeader } from './session-header.ts'
import { summarizeLog } from './summary.ts'
import type { SessionStore } from './store.ts'

interface Entry {
  readonly header: SessionHeader
  readonly events: SessionEvent[]
}

export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Entry>()
  readonly #clock: Clock
  #closed = false

  constructor(opts: { clock?: Clock } = {}) {
    this.#clock = opts.clock ?? systemClock
  }

  async create(header: SessionHeader): Promise<void> {
    this.#assertOpen()
    const copy = frozenCopy(header, 'header') as SessionHeader
    if (typeof copy?.id !== 'string' || copy.id === '')
      throw new TypeError('session header needs a non-empty id')
    if (this.#sessions.has(copy.id))
      throw new SessionEventError('SESSION_EXISTS', `session ${copy.id} already exists`)
    this.#sessions.set(copy.id, { header: copy, events: [] })
  }

  async append(id: string, events: readonly SessionEvent[]): Promise<void> {
    const entry = this.#entry(id)
    // Validate and copy the whole batch before storing any of it (all or nothing).
    const batch = events.map((event, i) => {
      const expected = entry.events.length + i
      if (event?.seq !== expected) {
        throw new SessionEventError(
          'SEQ_CONFLICT',
          `session ${id}: batch event ${i} has seq ${String(event?.seq)}, expected ${expected}`,
        )
      }
      return frozenCopy(event, `/${i}`) as SessionEvent
    })
    entry.events.push(...batch)
  }

  async load(id: string): Promise<{ header: SessionHeader; events: readonly SessionEvent[] }> {
    const entry = this.#entry(id)
    validateSessionHeader(entry.header)
    entry.events.push(...recoverLog(entry.events, this.#clock))
    return { header: entry.header, events: Object.freeze(entry.events.slice()) }
  }

  async list(): Promise<readonly SessionSummary[]> {
    this.#assertOpen()
    const out = [...this.#sessions.values()].map(({ header, events }): SessionSummary => {
      const last = events[events.length - 1]
      return {
        id: header.id,
        createdAt: header.createdAt,
        cwd: header.cwd,
        ...(header.parentSession !== undefined ? { parentSession: header.parentSession } : {}),
        ...(header.seedLength !== undefined ? { seedLength: header.seedLength } : {}),
        eventCount: events.length,
        ...(last ? { lastTime: last.time } : {}),
        ...summarizeLog(events),
      }
    })
    out.sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.id, b.id))
    return out
  }

  async fork(sourceId: string, child: SessionHeader, atSeq: number): Promise<void> {
    const source = this.#entry(sourceId)
    const copy = frozenCopy(child, 'child') as SessionHeader
    if (typeof copy?.id !== 'string' || copy.id === '')
      throw new TypeError('child header needs a non-empty id')
    if (this.#sessions.has(copy.id))
      throw new SessionEventError('SESSION_EXISTS', `session ${copy.id} already exists`)
    if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > source.events.length) {
      throw new SessionEventError(
        'BAD_FORK_POINT',
        `fork point ${atSeq} is outside 0..${source.events.length}`,
      )
    }
    if (openTurnAt(source.events, atSeq)) {
      throw new SessionEventError('BAD_FORK_POINT', `fork point ${atSeq} is inside an open turn`)
    }
    this.#sessions.set(copy.id, { header: copy, events: source.events.slice(0, atSeq) })
  }

  async remove(id: string): Promise<void> {
    this.#entry(id)
    this.#sessions.delete(id)
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#sessions.clear()
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('session store is closed')
  }

  #entry(id: string): Entry {
    this.#assertOpen()
    const entry = this.#sessions.get(id)
    if (!entry) throw new SessionEventError('SESSION_NOT_FOUND', `no session ${JSON.stringify(id)}`)
    return entry
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function frozenCopy(value: unknown, what: string): unknown {
  const r = checkJson(value)
  if (!r.ok)
    throw new SessionEventError('NOT_JSON', `${what}${r.path} is ${r.reason}`, { path: `${what}${r.path}` })
  return deepFreeze(r.value)
}
