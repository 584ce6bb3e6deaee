/** `send`/`steer`/`inject` on a disposed agent (AL-24). */
export class AgentDisposedError extends Error {
  override readonly name = 'AgentDisposedError'
  readonly code = 'AGENT_DISPOSED'
  constructor(id: string) {
    super(`agent ${id} is disposed`)
  }
}

/** Content without a source (AL-1): plugin text must never pass as the user's. */
export class MissingSourceError extends Error {
  override readonly name = 'MissingSourceError'
  readonly code = 'MISSING_SOURCE'
  constructor(where: string) {
    super(`${where}: content needs a source ({kind: 'user'} or {kind: 'plugin', name})`)
  }
}

/**
 * A model call failure. Adapters throw it (or any error with a string `code`); `transient` failures
 * may be retried by `@tack/llm` before the first chunk (AL-22).
 */
export class LlmError extends Error {
  override readonly name = 'LlmError'
  readonly code: string
  /** Set when the thrower knows; otherwise retry decides from `status` or the error code. */
  readonly transient?: boolean
  readonly status?: number
  readonly retryAfterMs?: number
  constructor(
    message: string,
    opts: { code: string; transient?: boolean; status?: number; retryAfterMs?: number; cause?: unknown },
  ) {
    super(message, { cause: opts.cause })
    this.code = opts.code
    this.transient = opts.transient
    this.status = opts.status
    this.retryAfterMs = opts.retryAfterMs
  }
}

/** An error that ends a turn with `error {code, message}`. */
export class TurnError extends Error {
  override readonly name = 'TurnError'
  readonly code: string
  constructor(code: string, message: string, cause?: unknown) {
    super(message, { cause })
    this.code = code
  }
}

/** A turn-ending failure of the model call itself (the provider or its API), not of a plugin or the loop. */
export class ModelCallError extends TurnError {
  readonly origin = 'model'
}

/** The code of any error, for turn-end reasons. */
export function errorCode(error: unknown, fallback: string): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.length > 0 ? code : fallback
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
