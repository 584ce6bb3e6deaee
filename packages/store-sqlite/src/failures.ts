// What an SQLite failure means for the person at the keyboard (issue 9 item 7): SQLite's result code
// becomes a `SqliteStoreError` whose one-line message names the file, says what happened and what to
// do. Nothing here writes: the transaction that failed was already rolled back by SQLite or by us.
import { SqliteStoreError, type SqliteStoreErrorCode } from './errors.ts'

/** SQLite primary result codes (the low byte of node:sqlite's `errcode`). */
const SQLITE = {
  PERM: 3,
  BUSY: 5,
  LOCKED: 6,
  READONLY: 8,
  IOERR: 10,
  CORRUPT: 11,
  FULL: 13,
  CANTOPEN: 14,
  NOTADB: 26,
}

interface SqliteErrorShape {
  code?: unknown
  errcode?: unknown
  message?: unknown
}

/** Whether `error` came from node:sqlite itself. */
export function isSqliteError(error: unknown): boolean {
  return (error as SqliteErrorShape | null)?.code === 'ERR_SQLITE_ERROR'
}

/**
 * `error` as a `SqliteStoreError` about `path` when it is one of SQLite's failures a person must act
 * on; other errors (ours, programming errors) are returned unchanged. `doing` says what failed
 * (`opening it`, `writing to it`), `busyTimeoutMs` is quoted when the file stayed locked.
 */
export function explainSqliteFailure(
  error: unknown,
  path: string,
  doing: string,
  busyTimeoutMs: number,
  fallback: SqliteStoreErrorCode = 'STORE_FAILED',
): unknown {
  if (error instanceof SqliteStoreError || !isSqliteError(error)) return error
  const e = error as SqliteErrorShape
  const primary = typeof e.errcode === 'number' ? e.errcode & 0xff : -1
  const sqlite = typeof e.message === 'string' ? e.message : 'unknown SQLite error'
  const fail = (code: SqliteStoreErrorCode, what: string, fix: string) =>
    new SqliteStoreError(code, `${path}: ${what} (${doing}: SQLite says "${sqlite}"); ${fix}`, {
      path,
      cause: error,
    })
  switch (primary) {
    case SQLITE.CORRUPT:
    case SQLITE.NOTADB:
      return fail(
        'STORE_CORRUPT',
        primary === SQLITE.NOTADB
          ? 'the session store is damaged or not an SQLite database'
          : 'the session store is damaged',
        `tack left it unchanged. Move it aside (mv '${path}' '${path}.broken') to start an empty one, or ` +
          `restore a backup; \`sqlite3 '${path}.broken' .recover\` may salvage its sessions`,
      )
    case SQLITE.READONLY:
    case SQLITE.PERM:
      return fail(
        'STORE_READ_ONLY',
        'the session store is read-only',
        'make the file and its folder writable, set TACK_HOME to a writable folder, or run with --no-session',
      )
    case SQLITE.FULL:
      return fail(
        'STORE_FULL',
        'the disk is full',
        'the store keeps everything written before this; free some space and run again',
      )
    case SQLITE.IOERR:
      return fail(
        'STORE_IO',
        'the disk reported an I/O error (full, a file size limit, or failing)',
        'the store keeps everything written before this; check free space and the disk, then run again',
      )
    case SQLITE.BUSY:
    case SQLITE.LOCKED:
      return fail(
        'STORE_BUSY',
        `another process kept the session store locked for more than ${busyTimeoutMs} ms`,
        'try again, or raise plugins.store.busyTimeoutMs',
      )
    case SQLITE.CANTOPEN:
      return fail(
        'STORE_OPEN_FAILED',
        'the session store cannot be opened',
        'check that the file and its folder exist and are readable and writable, or set TACK_HOME elsewhere',
      )
    default:
      return fail(fallback, 'SQLite failed', 'the store keeps everything written before this')
  }
}
