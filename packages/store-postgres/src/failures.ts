// What a PostgreSQL or network failure means for the person at the keyboard: one line naming the
// database (password redacted), what happened and what to do. Errors that are not the server's or the
// network's (ours, the SessionStore contract's) are returned unchanged.
import pg from 'pg'
import { PostgresStoreError, type PostgresStoreErrorCode } from './errors.ts'

interface ErrorShape {
  code?: unknown
  syscall?: unknown
  message?: unknown
  errors?: unknown
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOENT', // a Unix socket path that is not there
])

/** The error's code, looking inside the AggregateError Node gives when every address failed. */
function codeOf(error: ErrorShape): string | undefined {
  if (typeof error.code === 'string') return error.code
  if (Array.isArray(error.errors)) {
    for (const inner of error.errors) {
      const code = (inner as ErrorShape | null)?.code
      if (typeof code === 'string') return code
    }
  }
  return undefined
}

/** Node's codes for a TLS handshake or certificate it refused (`ERR_TLS_…`, `…_CERT_…`). */
const TLS_FAILURE = /^ERR_TLS_|^ERR_SSL_|CERT/

function messageOf(error: ErrorShape): string {
  let text = typeof error.message === 'string' && error.message !== '' ? error.message : ''
  if (text === '' && Array.isArray(error.errors))
    text = error.errors
      .map((e) => (e as ErrorShape)?.message)
      .filter(Boolean)
      .join('; ')
  return (text || 'no message').replace(/\s+/g, ' ').trim()
}

/**
 * Whether `error` came from the server (an SQLSTATE), the network (a system call), or node-postgres'
 * connection handling; never one of tack's own errors that merely mentions a timeout.
 */
function isDriverFailure(error: unknown): boolean {
  if (error instanceof pg.DatabaseError || error instanceof AggregateError) return true
  const e = error as ErrorShape
  if (typeof e.syscall === 'string') return true
  return (
    TLS_FAILURE.test(codeOf(e) ?? '') ||
    /timeout expired|Query read timeout|Connection terminated|password must be a string|connection timeout|does not support SSL/i.test(
      messageOf(e),
    )
  )
}

/** Whether `error` is a failure to reach the server (so the operation may be worth retrying). */
export function isUnreachable(error: unknown): boolean {
  if (error === null || typeof error !== 'object' || !isDriverFailure(error)) return false
  const e = error as ErrorShape
  const code = codeOf(e)
  if (code !== undefined && NETWORK_CODES.has(code)) return true
  const said = messageOf(e)
  return (
    !(error instanceof pg.DatabaseError) &&
    !/Query read timeout/.test(said) &&
    /timeout|Connection terminated/i.test(said)
  )
}

/**
 * `error` as a `PostgresStoreError` about the database `where` (an already redacted URL) when it is the
 * server's or the network's; `doing` says what failed (`connecting`, `appending to session x`).
 */
export function explainPostgresFailure(error: unknown, where: string, doing: string): unknown {
  if (error instanceof PostgresStoreError || error === null || typeof error !== 'object') return error
  if (!isDriverFailure(error)) return error
  const e = error as ErrorShape
  const code = codeOf(e)
  const said = messageOf(e)
  const fail = (c: PostgresStoreErrorCode, what: string, fix: string) =>
    new PostgresStoreError(c, `${where}: ${what} (${doing}: ${said}); ${fix}`, { driverError: error })
  if (code === '57014' || /Query read timeout/.test(said))
    return fail(
      'STORE_TIMEOUT',
      'the database did not finish in time',
      'nothing of it was stored; try again, or raise plugins.store.queryTimeoutMs if the server is slow',
    )
  if (isUnreachable(error))
    return fail(
      'STORE_UNREACHABLE',
      'the database cannot be reached',
      'check that PostgreSQL runs there and the host and port are right (plugins.store.url or TACK_STORE_URL)',
    )
  switch (code) {
    case '28P01':
    case '28000':
      return fail(
        'STORE_AUTH_FAILED',
        'the server refused the user or password',
        'check the user, and the password in the URL, PGPASSWORD or ~/.pgpass',
      )
    case '3D000':
      return fail('STORE_NO_DATABASE', 'that database does not exist', 'create it (createdb) or fix the URL')
    case '42501':
      return fail(
        'STORE_PERMISSION',
        'the user lacks a privilege tack needs',
        'grant it the right to create the schema `tack` (or create it for the user) and to use its tables',
      )
  }
  // The URL's sslmode and the server disagree (no SSL there), or the server's certificate was refused.
  if (TLS_FAILURE.test(code ?? '') || /does not support SSL/i.test(said))
    return fail(
      'STORE_FAILED',
      'the secure connection (SSL) failed',
      "check the URL's sslmode (and sslrootcert) against what the server offers",
    )
  // node-postgres asks for a password only when the server wants one; none was found anywhere.
  if (/password must be a string|no password/i.test(said))
    return fail(
      'STORE_AUTH_FAILED',
      'the server wants a password and none was given',
      'put it in the URL, PGPASSWORD or ~/.pgpass',
    )
  // SQLSTATE codes are five characters; anything else here is not the server's doing.
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
    return fail('STORE_FAILED', 'PostgreSQL failed', 'the store keeps every batch committed before this')
  return error
}
