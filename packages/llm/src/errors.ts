// Provider failures → `LlmError` (20-agent-loop.md AL-22): the HTTP status, whether the failure is
// transient (408, 409, 429, 5xx, overload, network), the Retry-After hint, and a message that never
// carries a secret. The AI SDK's error classes are recognised by shape, so this file loads no
// provider package (they are imported lazily, on the first request).
import { LlmError } from '@tack/agent'
import { redact } from './secrets.ts'

export interface ErrorContext {
  /** The provider name as the user wrote it (`deepseek`, `openai`, an endpoint name). */
  readonly provider: string
  /** Values that must not appear in the message (the API key, credential header values). */
  readonly secrets: readonly string[]
}

const TRANSIENT_STATUS = new Set([408, 409, 429])
/** Node and undici error codes of network failures worth another attempt. */
export const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
])

export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUS.has(status) || status >= 500
}

/** Milliseconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined
  const get = (name: string) => {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v
    return undefined
  }
  const ms = get('retry-after-ms')
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms))
  const value = get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

interface ErrorShape {
  name?: unknown
  message?: unknown
  code?: unknown
  type?: unknown
  statusCode?: unknown
  status?: unknown
  isRetryable?: unknown
  responseHeaders?: unknown
  responseBody?: unknown
  cause?: unknown
}

/**
 * How providers word "the request is longer than the model's context window" (a 400, or Anthropic's 413
 * for a body over its size limit): OpenAI, DeepSeek, vLLM and OpenRouter ("maximum context length is N
 * tokens", code `context_length_exceeded`), Anthropic ("prompt is too long: N tokens > M maximum"),
 * llama.cpp ("exceeds the available context size", `exceed_context_size_error`), Gemini's OpenAI-compatible
 * endpoint ("input token count … exceeds the maximum number of tokens"), Mistral ("too large for model
 * with N maximum context length"). Compaction answers it with one compaction and one retry.
 */
const CONTEXT_TOO_LONG_WORDING =
  /maximum context length|context[_ ]length[_ ]exceeded|prompt is too long|exceed(?:s|ed)? the (?:available )?context (?:size|window)|exceed_context_size|input token count.*exceeds the maximum|too large for model with \d+ maximum context length|request_too_large/i

/** Whether a provider's 4xx answer says the request does not fit the model's context window. */
export function isContextTooLong(status: number | undefined, text: string): boolean {
  if (status !== undefined && (status < 400 || status >= 500)) return false
  return CONTEXT_TOO_LONG_WORDING.test(text)
}

function networkCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 4) return undefined
  const e = error as ErrorShape
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return e.code
  return networkCode(e.cause, depth + 1)
}

function isAbort(error: unknown): boolean {
  const name = (error as ErrorShape | null)?.name
  return name === 'AbortError' || name === 'TimeoutError'
}

/** Turns anything a provider package throws (or emits as a stream error part) into an `LlmError`. */
export function toLlmError(error: unknown, context: ErrorContext): LlmError {
  if (error instanceof LlmError) return error
  const clean = (text: string) => redact(text, context.secrets)
  if (isAbort(error))
    return new LlmError('the model request was aborted', { code: 'ABORTED', transient: false })
  const e = (error && typeof error === 'object' ? error : { message: String(error) }) as ErrorShape
  const rawMessage = typeof e.message === 'string' && e.message ? e.message : 'unknown provider error'
  const replied =
    typeof e.statusCode === 'number' ? e.statusCode : typeof e.status === 'number' ? e.status : undefined
  const net = networkCode(error)
  // A 2xx "status" means the server answered and the body broke off while being read (the AI SDK
  // reports "Failed to process successful response" with status 200): a cut stream, not an HTTP error.
  if (replied !== undefined && replied >= 200 && replied < 300) return streamCut(context, net, rawMessage)
  const status = replied
  const type = typeof e.type === 'string' ? e.type : undefined
  const overloaded = type === 'overloaded_error' || status === 529
  const transient =
    (status !== undefined && isTransientStatus(status)) ||
    overloaded ||
    net !== undefined ||
    (status === undefined && e.isRetryable === true)
  const retryAfterMs = parseRetryAfter(
    e.responseHeaders && typeof e.responseHeaders === 'object'
      ? (e.responseHeaders as Record<string, string>)
      : undefined,
  )
  const body = typeof e.responseBody === 'string' ? e.responseBody : ''
  const code = overloaded
    ? 'OVERLOADED'
    : isContextTooLong(status, `${rawMessage}\n${body}`)
      ? 'CONTEXT_TOO_LONG'
      : status !== undefined
        ? `HTTP_${status}`
        : net
          ? 'NETWORK'
          : e.name === 'AI_JSONParseError' || e.name === 'AI_TypeValidationError'
            ? 'BAD_RESPONSE'
            : 'PROVIDER_ERROR'
  const where = status !== undefined ? `${context.provider} ${status}` : context.provider
  // The provider's own message, without its request body or our headers (never attached as cause).
  return new LlmError(clean(`${where}: ${firstLine(rawMessage)}`), {
    code,
    transient,
    ...(status !== undefined ? { status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  })
}

/** A stream that broke off after the server answered: `NETWORK` when a socket error says so. */
function streamCut(context: ErrorContext, net: string | undefined, rawMessage: string): LlmError {
  const why = net
    ? `the connection failed mid-stream (${net})`
    : 'the stream broke off before the model finished'
  return new LlmError(redact(`${context.provider}: ${why}: ${firstLine(rawMessage)}`, context.secrets), {
    code: net ? 'NETWORK' : 'STREAM_TRUNCATED',
    transient: true,
  })
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]
  return line.length > 500 ? `${line.slice(0, 500)}…` : line
}
