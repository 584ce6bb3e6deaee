// The cordis side: `ctx.sessions` makes Sessions wired to `ctx.sessionStore`, re-emits their appends
// on `session/event` and persists them through the `session/flush` seam. The `sessions` plugin also
// provides a MemorySessionStore unless configured with `store: 'external'`.
import { randomUUID } from 'node:crypto'
import {
  type ConfigOf,
  type Context,
  definePlugin,
  emitSafely,
  parallel,
  Schema,
  Service,
} from '@tack/kernel'
import { SessionEventError } from './errors.ts'
import {
  SESSION_FORMAT_VERSION,
  type SessionEvent,
  type SessionHeader,
  type SessionSummary,
} from './events.ts'
import { MemorySessionStore } from './memory-store.ts'
import { openTurnAt } from './recover.ts'
import { describeForkPoints, forkPoints } from './fork-points.ts'
import { Session } from './session.ts'
import { validateSessionHeader } from './session-header.ts'
import type { SessionStore } from './store.ts'

/** How a session came to be opened through `ctx.sessions`. */
export type SessionOrigin = 'create' | 'open' | 'fork'

declare module 'cordis' {
  interface Context {
    sessions: SessionsService
    sessionStore: SessionStore
  }
  interface Events {
    /**
     * @mode emit — one event was appended to a session made by `ctx.sessions`; fired synchronously
     * inside `append`, in log order. Listener failures are reported, never propagated.
     */
    'session/event'(session: Session, event: SessionEvent): void
    /**
     * @mode parallel — a session made by `ctx.sessions` is flushing these events. The service's own
     * listener writes them to `ctx.sessionStore`; any rejecting listener makes `flush()` reject.
     */
    'session/flush'(session: Session, events: readonly SessionEvent[]): Promise<void>
    /**
     * @mode emit — `ctx.sessions` made a Session object (created, opened or forked), before handing it
     * out and before any append on it; a listener may `session.subscribe` to see every event.
     */
    'session/opened'(session: Session, origin: SessionOrigin): void
  }
}

/** Per-session bookkeeping: how much of the log the store already holds. */
interface Owned {
  persisted: number
  /**
   * The header of a session created with `storeFromFirstTurn` that the store does not hold yet: it is
   * written, with every event so far, by the first flush once the log holds a `turn/start`.
   */
  unstored?: SessionHeader
}

export class SessionsService extends Service {
  static inject = ['sessionStore']
  // cordis hands services out through a proxy, so state lives in ordinary (not `#`) fields.
  private readonly owned = new WeakMap<Session, Owned>()
  private disposed = false

  constructor(ctx: Context) {
    super(ctx, 'sessions')
    ctx.on('session/flush', (session, events) => this.persist(session, events))
    ctx.effect(() => () => {
      this.disposed = true
    })
  }

  /**
   * Creates a new, empty session in the store and returns it wired for events and flush. With
   * `storeFromFirstTurn` the store gets it only once its log holds a turn: a screen opened and left, a
   * `/clear` never followed by a prompt, an editor's session never prompted leave nothing behind to list
   * (docs/decisions/0320-small-things.md). Until then nothing else can open it, and its events so far
   * (a mode switch, say) are written with that first turn.
   */
  async create(opts: {
    cwd: string
    id?: string
    parentSession?: string
    storeFromFirstTurn?: boolean
  }): Promise<Session> {
    const header: SessionHeader = {
      version: SESSION_FORMAT_VERSION,
      id: opts.id ?? randomUUID(),
      createdAt: new Date().toISOString(),
      cwd: opts.cwd,
      // A subagent's session names its parent's (TL-18); it is not a fork, so no seedLength.
      ...(opts.parentSession ? { parentSession: opts.parentSession } : {}),
    }
    validateSessionHeader(header)
    if (opts.storeFromFirstTurn) return this.wire(header, [], 'create', header)
    await this.ctx.sessionStore.create(header, { writer: true })
    return this.wire(header, [], 'create')
  }

  /** Whether the store holds `session` (false only for a `storeFromFirstTurn` one before its first turn). */
  isStored(session: Session): boolean {
    return this.owned.get(session)?.unstored === undefined
  }

  /** Loads a session (recovering an interrupted final turn, SL-25) and returns it wired (SL-23). */
  async open(id: string): Promise<Session> {
    // The session is handed out for appending, so this process becomes its writer (SESSION_BUSY
    // when another live process is writing it).
    const { header, events } = await this.ctx.sessionStore.load(id, { writer: true })
    return this.wire(header, events, 'open')
  }

  /**
   * Copies the source's recovered log `[0, atSeq)` (default: all of it) into a new session with
   * `parentSession` and `seedLength` set (SL-22). `atSeq` must be a cut outside any turn.
   */
  async fork(sourceId: string, opts: { atSeq?: number; childId?: string } = {}): Promise<Session> {
    const source = await this.ctx.sessionStore.load(sourceId)
    const atSeq = opts.atSeq ?? source.events.length
    if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > source.events.length) {
      throw new SessionEventError(
        'BAD_FORK_POINT',
        `fork point ${atSeq} is outside 0..${source.events.length}`,
      )
    }
    if (openTurnAt(source.events, atSeq)) {
      const points = describeForkPoints(forkPoints(source.events), atSeq)
      throw new SessionEventError(
        'BAD_FORK_POINT',
        `fork point ${atSeq} is inside a turn; a fork cuts at a turn's start or the end: ${points}`,
      )
    }
    const child: SessionHeader = {
      version: SESSION_FORMAT_VERSION,
      id: opts.childId ?? randomUUID(),
      createdAt: new Date().toISOString(),
      cwd: source.header.cwd,
      parentSession: sourceId,
      seedLength: atSeq,
    }
    await this.ctx.sessionStore.fork(sourceId, child, atSeq)
    const loaded = await this.ctx.sessionStore.load(child.id, { writer: true })
    return this.wire(loaded.header, loaded.events, 'fork')
  }

  list(): Promise<readonly SessionSummary[]> {
    return this.ctx.sessionStore.list()
  }

  remove(id: string): Promise<void> {
    return this.ctx.sessionStore.remove(id)
  }

  // `wire` and `flushVia` are arrow fields so that `this` in them, and in the closures a session keeps
  // for every event and flush, is the service itself rather than the cordis proxy a caller reached it
  // through: through the proxy each `this.x` built shadow contexts and proxies, on every event
  // (docs/decisions/0067-long-session-cost.md).
  private readonly wire = (
    header: SessionHeader,
    events: readonly SessionEvent[],
    origin: SessionOrigin,
    unstored?: SessionHeader,
  ): Session => {
    const session = new Session({ header, events, onFlush: (s, batch) => this.flushVia(s, batch) })
    this.owned.set(session, { persisted: session.length, ...(unstored ? { unstored } : {}) })
    session.subscribe((event, s) => {
      if (!this.disposed) emitSafely(this.ctx, 'session/event', s, event)
    })
    emitSafely(this.ctx, 'session/opened', session, origin)
    return session
  }

  private readonly flushVia = async (session: Session, events: readonly SessionEvent[]): Promise<void> => {
    // Without our store listener a flush would "succeed" without persisting anything: fail closed.
    if (this.disposed)
      throw new Error(`session ${session.id}: the sessions service is disposed; events not persisted`)
    try {
      await parallel(this.ctx, 'session/flush', session, events)
    } catch (error) {
      if (error instanceof AggregateError && error.errors.length === 1) throw error.errors[0]
      throw error
    }
  }

  /** The service's own `session/flush` listener: writes what the store does not hold yet. */
  private async persist(session: Session, events: readonly SessionEvent[]): Promise<void> {
    const owned = this.owned.get(session)
    if (!owned) return
    if (owned.unstored) {
      const all = session.events()
      if (!all.some((e) => e.type === 'turn/start')) return
      await this.ctx.sessionStore.create(owned.unstored, { writer: true })
      owned.unstored = undefined
      events = all
    }
    // After a flush that failed in another listener, the store may already hold part of the batch.
    const fresh = events.filter((e) => e.seq >= owned.persisted)
    if (fresh.length === 0) return
    await this.ctx.sessionStore.append(session.id, fresh)
    owned.persisted = fresh[fresh.length - 1].seq + 1
  }
}

export const SessionsConfig = Schema.object({
  store: Schema.enum(['memory', 'external'] as const, {
    default: 'memory',
    description:
      "'memory': the plugin provides an in-memory ctx.sessionStore; 'external': the host provides " +
      'ctx.sessionStore (e.g. @tack/store-sqlite) and ctx.sessions starts once it exists.',
  }),
})
export type SessionsConfig = ConfigOf<typeof SessionsConfig>

/** Provides an in-memory `ctx.sessionStore`. */
export const memorySessionStorePlugin = {
  name: 'session-store-memory',
  apply(ctx: Context) {
    ctx.provide('sessionStore', new MemorySessionStore())
  },
}

/** The `sessions` plugin: `ctx.sessions`, plus a memory `ctx.sessionStore` unless `store: 'external'`. */
export const sessionsPlugin = definePlugin({
  name: 'sessions',
  Config: SessionsConfig,
  async apply(ctx, config) {
    if (config.store === 'memory') await ctx.plugin(memorySessionStorePlugin)
    await ctx.plugin(SessionsService)
  },
})
