// Errors of the PostgreSQL backend itself (reaching the server, its schema). Errors a caller can get from
// the SessionStore contract (SEQ_CONFLICT, SESSION_NOT_FOUND, …) are @tack/session's SessionEventError,
// so callers switch on the same codes whatever the backend.

export type PostgresStoreErrorCode =
  /** No server answered at the URL's address (refused, unknown host, timed out). */
  | 'STORE_UNREACHABLE'
  /** The server refused the user or the password. */
  | 'STORE_AUTH_FAILED'
  /** The URL's database does not exist on that server. */
  | 'STORE_NO_DATABASE'
  /** The database holds a tack schema newer than this build reads. */
  | 'STORE_SCHEMA_NEWER'
  /** The tack schema is there but not as a tack of any version leaves it. */
  | 'STORE_SCHEMA_DAMAGED'
  /** The user may not create or change the tack schema. */
  | 'STORE_PERMISSION'
  /** The store was closed; every later call rejects. */
  | 'STORE_CLOSED'
  /** Any other failure of the server or the connection. */
  | 'STORE_FAILED'

export class PostgresStoreError extends Error {
  override readonly name = 'PostgresStoreError'
  readonly code: PostgresStoreErrorCode
  /**
   * The driver's or server's own error, for a debugger. Not `cause`: the message already quotes it, and
   * a logger that prints causes (cordis does) would put the same failure on a second line.
   */
  readonly driverError?: unknown
  constructor(code: PostgresStoreErrorCode, message: string, opts: { driverError?: unknown } = {}) {
    super(`${code}: ${message}`)
    this.code = code
    if (opts.driverError !== undefined) this.driverError = opts.driverError
  }
}
