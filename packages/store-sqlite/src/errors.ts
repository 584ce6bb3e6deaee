// Errors of the SQLite backend itself (opening the file, its layout). Errors a caller can get from the
// SessionStore contract (SEQ_CONFLICT, SESSION_NOT_FOUND, …) are @tack/session's SessionEventError, so
// callers switch on the same codes whatever the backend.

export type SqliteStoreErrorCode =
  /** The file carries a layout version (`PRAGMA user_version`) this build does not read (SL-29). */
  | 'STORE_LAYOUT_MISMATCH'
  /** A pragma read back a value other than the one set, e.g. a journal mode SQLite refused (SL-28). */
  | 'PRAGMA_MISMATCH'
  /** The file could not be opened or set up (not a database, locked, unreadable). */
  | 'STORE_OPEN_FAILED'
  /** The store was closed; every later call rejects. */
  | 'STORE_CLOSED'
  /** The file is damaged (SQLite's CORRUPT / NOTADB); it is left untouched. */
  | 'STORE_CORRUPT'
  /** The file (or its folder) cannot be written. */
  | 'STORE_READ_ONLY'
  /** The disk is full; the failed write was rolled back. */
  | 'STORE_FULL'
  /** Any other disk I/O failure (including a file size limit); the failed write was rolled back. */
  | 'STORE_IO'
  /** Another connection kept the file locked past `busyTimeoutMs`. */
  | 'STORE_BUSY'
  /** Any other SQLite failure. */
  | 'STORE_FAILED'

export class SqliteStoreError extends Error {
  override readonly name = 'SqliteStoreError'
  readonly code: SqliteStoreErrorCode
  /** The database file concerned. */
  readonly path?: string
  constructor(code: SqliteStoreErrorCode, message: string, opts: { path?: string; cause?: unknown } = {}) {
    super(`${code}: ${message}`, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.code = code
    if (opts.path !== undefined) this.path = opts.path
  }
}
