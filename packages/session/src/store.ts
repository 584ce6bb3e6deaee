// The persistence interface (§9, SL-26) every backend implements; `describeSessionStore` in
// `@tack/session/testing` is its conformance suite.
import type { SessionEvent, SessionHeader, SessionSummary } from './events.ts'

export interface SessionStore {
  /** Stores a new session with no events; `SESSION_EXISTS` when the id is taken. */
  create(header: SessionHeader): Promise<void>
  /**
   * Appends a batch atomically (all or nothing). The batch's seqs must continue the stored log
   * (`SEQ_CONFLICT` otherwise); `SESSION_NOT_FOUND` for an unknown id. An empty batch is a no-op.
   */
  append(id: string, events: readonly SessionEvent[]): Promise<void>
  /**
   * Reads a session. Throws `UnsupportedSessionFormatError` for a header version other than 1 (before
   * touching anything); when the log ends inside a turn, appends the `recoverLog` tail durably in one
   * transaction and returns the log including it (SL-25).
   */
  load(id: string): Promise<{ header: SessionHeader; events: readonly SessionEvent[] }>
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
