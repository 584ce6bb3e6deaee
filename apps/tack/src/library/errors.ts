// The library's one error class (api.ts TackError) and how tack's own errors become it: what the CLI
// prints as `tack: …` with exit code 2 or 1 (main.ts) is, for a library caller, a TackError with the same
// one-line message and the original as `cause`. Anything else (a bug) is rethrown as it is.
import { ConfigError } from '@tack/kernel'
import { TackHomeError } from '@tack/kernel/home'
import { UsageError } from '../args.ts'
import { CliError, NotFoundError } from '../errors.ts'

export type TackErrorKind = 'usage' | 'config' | 'not-found' | 'store'

export class TackError extends Error {
  override readonly name = 'TackError'
  readonly kind: TackErrorKind

  constructor(kind: TackErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.kind = kind
  }
}

// By name, so neither store's module is loaded to test for its errors.
const STORE_ERRORS = new Set([
  'SqliteStoreError',
  'PostgresStoreError',
  'SessionEventError',
  'UnsupportedSessionFormatError',
])

/** `error` as the library reports it: a TackError for what a person can fix, else unchanged. */
export function asTackError(error: unknown, redact: (text: string) => string = (t) => t): unknown {
  if (!(error instanceof Error)) return error
  const kind: TackErrorKind | undefined =
    error instanceof NotFoundError
      ? 'not-found'
      : error instanceof UsageError
        ? 'usage'
        : error instanceof ConfigError || error instanceof CliError || error instanceof TackHomeError
          ? 'config'
          : STORE_ERRORS.has(error.name)
            ? 'store'
            : undefined
  const message = redact(error.message.replace(/\s*\n\s*/g, ' ').trim())
  if (error instanceof TackError)
    return message === error.message ? error : new TackError(error.kind, message)
  return kind ? new TackError(kind, message, { cause: error }) : error
}

/** Runs `work`, reporting its failure as `asTackError` does, with secrets redacted from the message. */
export async function reported<T>(work: () => Promise<T>, redact?: (text: string) => string): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw asTackError(error, redact)
  }
}
