// A session: the append-only log (SL-1…SL-4) with its incrementally maintained projections — derived
// messages (SL-9, SL-10), the surface and its tool-pairing balance (SL-12), and the folded request
// header (SL-16). Appends are synchronous and in memory; `flush` is the durability point (SL-24).
import { deepFreeze } from '@tack/kernel'
import { SessionEventError } from './errors.ts'
import {
  type Clock,
  type EpochHeader,
  type HeaderDelta,
  isSurfaceType,
  type JsonValue,
  type Message,
  type SessionEvent,
  type SessionEventMap,
  type SessionEventType,
  type SessionHeader,
  type SurfaceOp,
  systemClock,
} from './events.ts'
import { applyHeaderDelta, diffHeader, normalizeHeader } from './request-header.ts'
import { checkJson, jsonEqual } from './json.ts'
import { deriveEventMessage } from './messages.ts'
import { checkCorePayload, checkEventType } from './payload.ts'
import { validateSessionHeader } from './session-header.ts'
import { SurfaceTracker } from './surface.ts'

export interface SessionOptions {
  header: SessionHeader
  /**
   * An existing (loaded) log, taken as durable: validated lightly (seqs, ops, header fold) and trusted
   * otherwise. Its events are deep-frozen in place rather than copied.
   */
  events?: readonly SessionEvent[]
  /** Stamps `time` on appended events; default the system clock. */
  clock?: Clock
  /** Durability: called by flush() with the events appended since the last successful flush. */
  onFlush?: (session: Session, events: readonly SessionEvent[]) => Promise<void>
}

export type SessionListener = (event: SessionEvent, session: Session) => void

export class Session {
  readonly id: string
  readonly header: SessionHeader
  readonly #events: SessionEvent[] = []
  #snapshot: readonly SessionEvent[] = Object.freeze([])
  readonly #clock: Clock
  readonly #onFlush: SessionOptions['onFlush']
  #flushed = 0
  #flushTail: Promise<void> = Promise.resolve()
  readonly #listeners = new Set<SessionListener>()
  readonly #outbox: SessionEvent[] = []
  #delivering = false
  readonly #surface = new SurfaceTracker()
  /** Derived messages aligned with surface positions; may lag the surface until the next derive. */
  #messages: Message[] = []
  #projectionCount = 0
  #header: EpochHeader | undefined
  /** The last header found equal to `#header`: a later one sharing its frozen parts is equal too. */
  #agreed: EpochHeader | undefined
  #headerWritten = false

  constructor(opts: SessionOptions) {
    validateSessionHeader(opts.header)
    this.header = deepFreeze({ ...opts.header })
    this.id = this.header.id
    this.#clock = opts.clock ?? systemClock
    this.#onFlush = opts.onFlush
    for (const event of opts.events ?? []) this.#load(event)
    this.#flushed = this.#events.length
  }

  get length(): number {
    return this.#events.length
  }

  /**
   * Appends one event: validates `data` as lossless JSON and core payload shape, folds `op` (a surface
   * event without `op` is an append; a log-only event must not carry one), stores a deep-frozen copy
   * and notifies subscribers before returning. On any validation error nothing is appended.
   */
  append<T extends SessionEventType>(type: T, data: SessionEventMap[T], op?: SurfaceOp): SessionEvent<T> {
    checkEventType(type)
    const json = checkJson(data)
    if (!json.ok) {
      throw new SessionEventError('NOT_JSON', `${type} data${json.path} is ${json.reason}`, {
        path: `/data${json.path}`,
      })
    }
    checkCorePayload(type, json.value)
    const canonicalOp = this.#surface.check(type, op)
    const header = this.#nextHeader(type, json.value)
    const event = deepFreeze({
      type,
      seq: this.#events.length,
      time: new Date(this.#clock.now()).toISOString(),
      data: json.value as SessionEventMap[T],
      ...(canonicalOp ? { op: canonicalOp } : {}),
    }) as SessionEvent<T>
    this.#store(event, header)
    this.#deliver(event)
    return event
  }

  /** The whole log, as a frozen array of deep-frozen events. */
  events(): readonly SessionEvent[] {
    if (this.#snapshot.length !== this.#events.length) this.#snapshot = Object.freeze(this.#events.slice())
    return this.#snapshot
  }

  /**
   * One event by position (= its `seq`), or undefined past the end. For readers that follow the log
   * incrementally: `events()` copies the whole log whenever it grew, which per step is garbage that
   * grows with history (docs/decisions/0066-flat-memory.md).
   */
  eventAt(seq: number): SessionEvent | undefined {
    return this.#events[seq]
  }

  /**
   * Calls `listener` synchronously inside every later `append`, before it returns. Events appended by
   * a listener are delivered, in order, after the current event reaches every listener. A throwing
   * listener does not stop the others; after all have run, `append` rethrows the first error (the
   * event stays appended — use this for invariant checks, not for vetoes).
   */
  subscribe(listener: SessionListener): () => void {
    const entry: SessionListener = (event, session) => listener(event, session)
    this.#listeners.add(entry)
    return () => {
      this.#listeners.delete(entry)
    }
  }

  /**
   * Hands the events appended since the last successful flush to `onFlush` and awaits it. Calls are
   * serialised. On rejection the events stay pending and the returned promise rejects.
   */
  flush(): Promise<void> {
    const run = this.#flushTail.then(() => this.#flushPending())
    this.#flushTail = run.catch(() => {})
    return run
  }

  get pendingCount(): number {
    return this.#events.length - this.#flushed
  }

  /** The model-visible messages of the surface: a new array each call, sharing deep-frozen elements. */
  deriveMessages(): readonly Message[] {
    this.#catchUp()
    return this.#messages.slice()
  }

  /** How many times a surface node was projected to a message (SL-9). */
  get projectionCount(): number {
    return this.#projectionCount
  }

  /** Bumped by every folded replace and by `invalidate()`; never reset (SL-10). */
  get replaceGeneration(): number {
    return this.#surface.generation
  }

  /** Drops every cached projection and re-projects the whole surface. */
  invalidate(): void {
    this.#surface.generation++
    this.#messages = []
    this.#catchUp()
  }

  /** The current surface nodes, after every replace. */
  surface(): readonly SessionEvent[] {
    return Object.freeze(this.#surface.nodes.slice())
  }

  /** Tool-call blocks on the surface still waiting for their result. */
  get inProgressToolCalls(): number {
    return this.#surface.balance[this.#surface.balance.length - 1]
  }

  /** Whether no tool call is open at the cut just before surface node `seq` (`NOT_ON_SURFACE` if absent). */
  toolPairingBalancedBefore(seq: number): boolean {
    return this.#surface.balance[this.#positionOf(seq)] === 0
  }

  /** Whether no tool call is open at the cut just after surface node `seq`. */
  toolPairingBalancedAfter(seq: number): boolean {
    return this.#surface.balance[this.#positionOf(seq) + 1] === 0
  }

  /**
   * The header writer (SL-16). The first call on this Session object writes a snapshot — `initial`
   * when the log has no header event, `resume` when it has. Later calls write nothing when the
   * normalised header equals the folded baseline, else a delta that was verified to reproduce it,
   * else a `fallback` snapshot. Returns the event written, if any.
   */
  recordRequestHeader(h: EpochHeader): SessionEvent | undefined {
    const next = normalizeHeader(h)
    const base = this.#header
    if (!this.#headerWritten || !base) {
      const event = this.append('request/header', { header: next, reason: base ? 'resume' : 'initial' })
      this.#headerWritten = true
      return event
    }
    if (this.#agreed && sameParts(this.#agreed, next)) return undefined
    if (jsonEqual(base, next)) {
      this.#agreed = next
      return undefined
    }
    const delta = diffHeader(base, next)
    if (delta && roundTrips(base, delta, next)) return this.append('request/header-delta', delta)
    return this.append('request/header', { header: next, reason: 'fallback' })
  }

  /** The folded request header in force (frozen), or undefined before any header event. */
  requestHeader(): EpochHeader | undefined {
    return this.#header
  }

  #setHeader(header: EpochHeader | undefined): void {
    this.#header = header && deepFreeze(header)
    this.#agreed = undefined
  }

  #positionOf(seq: number): number {
    const position = this.#surface.positionOf(seq)
    if (position === undefined)
      throw new SessionEventError('NOT_ON_SURFACE', `seq ${seq} is not a current surface node`)
    return position
  }

  /** The header the log will be in force after appending `type` with `data`; throws if it cannot fold. */
  #nextHeader(type: string, data: JsonValue): EpochHeader | undefined {
    if (type === 'request/header')
      return normalizeHeader((data as unknown as SessionEventMap['request/header']).header)
    if (type !== 'request/header-delta') return this.#header
    if (!this.#header) throw new SessionEventError('HEADER_FOLD_ERROR', 'header delta with no prior snapshot')
    try {
      return applyHeaderDelta(this.#header, data as unknown as HeaderDelta)
    } catch (error) {
      if (error instanceof SessionEventError) throw error
      throw new SessionEventError('HEADER_FOLD_ERROR', `header delta does not apply: ${String(error)}`, {
        cause: error,
      })
    }
  }

  #store(event: SessionEvent, header: EpochHeader | undefined): void {
    this.#events.push(event)
    if (header !== this.#header) this.#setHeader(header)
    const change = this.#surface.add(event)
    if (!change) return
    if (change.kind === 'replace') {
      // Projections of untouched nodes stay; only the replaced run changes.
      if (this.#messages.length >= change.at + change.count) {
        this.#messages.splice(change.at, change.count, this.#project(event))
      } else {
        this.#messages.length = Math.min(this.#messages.length, change.at)
      }
    }
    this.#catchUp()
  }

  #load(event: SessionEvent): void {
    const seq = this.#events.length
    if (event?.seq !== seq) {
      throw new SessionEventError(
        'SEQ_CONFLICT',
        `loaded event at index ${seq} has seq ${String(event?.seq)}`,
      )
    }
    checkEventType(event.type)
    if (isSurfaceType(event.type) && event.op === undefined) {
      throw new SessionEventError(
        'SURFACE_OP_MISMATCH',
        `loaded surface event ${event.type} at seq ${seq} has no op`,
      )
    }
    this.#surface.check(event.type, event.op)
    const header = this.#nextHeader(event.type, event.data as JsonValue)
    this.#events.push(deepFreeze(event))
    if (header !== this.#header) this.#setHeader(header)
    this.#surface.add(event)
    // Loaded nodes are projected lazily, on the first deriveMessages().
  }

  #project(event: SessionEvent): Message {
    this.#projectionCount++
    return deriveEventMessage(event)
  }

  /** Projects the surface nodes not yet projected (appends are projected as they arrive). */
  #catchUp(): void {
    const nodes = this.#surface.nodes
    for (let i = this.#messages.length; i < nodes.length; i++) this.#messages.push(this.#project(nodes[i]))
  }

  async #flushPending(): Promise<void> {
    const end = this.#events.length
    if (end === this.#flushed) return
    const batch = Object.freeze(this.#events.slice(this.#flushed, end))
    if (this.#onFlush) await this.#onFlush(this, batch)
    this.#flushed = end
  }

  #deliver(event: SessionEvent): void {
    this.#outbox.push(event)
    if (this.#delivering) return
    this.#delivering = true
    let failure: { error: unknown } | undefined
    try {
      for (let next = this.#outbox.shift(); next; next = this.#outbox.shift()) {
        for (const listener of [...this.#listeners]) {
          try {
            listener(next, this)
          } catch (error) {
            failure ??= { error }
          }
        }
      }
    } finally {
      this.#delivering = false
    }
    if (failure) throw failure.error
  }
}

/**
 * Whether `next` has the very same tools and prefix objects as `agreed`, the same system and an equal
 * config: then it equals what `agreed` equalled, without walking the tool schemas again. Both are
 * outputs of `normalizeHeader`, which shares an object only when it is deep-frozen (else it copies,
 * and a copy is never the same object), so a shared part cannot have changed.
 */
function sameParts(agreed: EpochHeader, next: EpochHeader): boolean {
  return (
    agreed.tools === next.tools &&
    agreed.messagePrefix === next.messagePrefix &&
    agreed.system === next.system &&
    jsonEqual(agreed.config, next.config)
  )
}

function roundTrips(base: EpochHeader, delta: HeaderDelta, next: EpochHeader): boolean {
  try {
    return jsonEqual(applyHeaderDelta(base, delta), next)
  } catch {
    return false
  }
}
