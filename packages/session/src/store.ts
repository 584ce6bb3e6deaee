// The persistence interface (§9, SL-26) every backend implements; `describeSessionStore` in
// `@tack/session/testing` is its conformance suite.
import type { SessionEvent, SessionHeader, SessionSummary } from './events.ts'

/**
 * How a caller means to use a session it creates or loads. A store shared between processes (SQLite)
 * gives the session's writer a lease, so a reader in another process never "recovers" a turn that
 * is still running (docs/decisions/0017-writer-lease.md); a store private to one process ignores it.
 */
export interface SessionAccess {
  /**
   * True: the caller will append to the session. The store takes the session's writer lease, failing
   * `SESSION_BUSY` when another live process holds it. Default false: a reader, which never takes the
   * lease and never fails for one.
   */
  readonly writer?: boolean
}

export interface SessionStore {
  /** Stores a new session with no events; `SESSION_EXISTS` when the id is taken. */
  create(header: SessionHeader, access?: SessionAccess): Promise<void>
  /**
   * Appends a batch atomically (all or nothing). The batch's seqs must continue the stored log
   * (`SEQ_CONFLICT` otherwise); `SESSION_NOT_FOUND` for an unknown id. An empty batch is a no-op.
   */
  append(id: string, events: readonly SessionEvent[]): Promise<void>
  /**
   * Reads a session. Throws `UnsupportedSessionFormatError` for a header version other than 1 (before
   * touching anything); when the log ends inside a turn, appends the `recoverLog` tail durably in one
   * transaction and returns the log including it (SL-25) — unless another live process holds the
   * session's writer lease: then that turn is still running, and the log is returned as stored.
   */
  load(
    id: string,
    access?: SessionAccess,
  ): Promise<{ header: SessionHeader; events: readonly SessionEvent[] }>
  /** Every session, ordered by `createdAt`, then `id`. */
  list(): Promise<readonly SessionSummary[]>
  /**
   * Creates `child` holding an exact copy of the source's events `[0, atSeq)`, atomically.
   * `SESSION_NOT_FOUND` for an unknown source, `SESSION_EXISTS` for a taken child id, `BAD_FORK_POINT`
   * when `atSeq` is not an integer in `[0, count]` or a turn is open at that cut.
   */
  fork(sourceId: string, child: SessionHeader, atSeq: number): Promise<void>
  /** Deletes a session and its events atomically; `SESSION_NOT_FOUND` for an unknown id. */
  remove(id: string): Promise<void>
  /** Releases resources; later calls reject. Idempotent. */
  close(): Promise<void>
}
