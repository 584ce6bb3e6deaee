// Errors a person can act on: one line naming what failed and what to do. The commands print the
// message as it is (exit code 2 for bad input, 1 for a database or repository that failed).
export type FleetErrorCode =
  | 'DB_UNREACHABLE'
  | 'DB_AUTH'
  | 'DB_FAILED'
  | 'NO_URL'
  | 'BAD_JOB'
  | 'NO_SUCH_JOB'
  | 'CLONE_FAILED'
  | 'BAD_STATE'

export class FleetError extends Error {
  override readonly name = 'FleetError'
  readonly code: FleetErrorCode
  constructor(code: FleetErrorCode, message: string) {
    super(message)
    this.code = code
  }
  /** Bad input (exit 2) rather than a failure of something else (exit 1). */
  get isUsage(): boolean {
    return this.code === 'BAD_JOB' || this.code === 'NO_URL' || this.code === 'NO_SUCH_JOB'
  }
}

/**
 * A connection failure said in one line, without the URL (it may hold the password): the host and port
 * only. node-postgres reports a refused port as ECONNREFUSED and a wrong password as SQLSTATE 28P01.
 */
export function explainConnectFailure(error: unknown, url: string): FleetError {
  const where = describeUrl(url)
  const e = error as { code?: string; message?: string } | null
  const code = e?.code ?? ''
  if (code === '28P01' || code === '28000')
    return new FleetError(
      'DB_AUTH',
      `the database at ${where} refused the password (set it in the URL, PGPASSWORD or ~/.pgpass)`,
    )
  if (code === '3D000') return new FleetError('DB_UNREACHABLE', `the database at ${where} does not exist`)
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN'].includes(code))
    return new FleetError(
      'DB_UNREACHABLE',
      `cannot reach the database at ${where} (${code}): is PostgreSQL running there?`,
    )
  const text = (e?.message ?? String(error)).split('\n')[0]
  if (/timeout/i.test(text))
    return new FleetError('DB_UNREACHABLE', `cannot reach the database at ${where} (connection timed out)`)
  return new FleetError('DB_FAILED', `the database at ${where} failed: ${stripSecrets(text, url)}`)
}

/** `host:port/database` of a postgres URL, never its user or password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url)
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`
  } catch {
    return '(an unparsable URL)'
  }
}

function stripSecrets(text: string, url: string): string {
  try {
    const password = decodeURIComponent(new URL(url).password)
    return password ? text.split(password).join('***') : text
  } catch {
    return text
  }
}
