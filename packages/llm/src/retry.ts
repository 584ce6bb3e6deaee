// Retries of transient model failures (AL-22), as a decorator around an adapter: only failures
// before the first chunk is delivered are retried (after that, something model-visible may already
// be in the log), with jittered exponential backoff capped at `maxDelayMs`, honouring Retry-After up
// to that cap, and every wait ends on abort.
import type { LlmAdapter, LlmRequest, LlmResponse } from '@tack/agent'
import type { StreamChunk } from '@tack/session'
import { isTransientStatus, NETWORK_CODES } from './errors.ts'

export interface RetryPolicy {
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  /** Total attempts; 1 disables retries. */
  readonly maxAttempts: number
  /** Attempts when the server stays silent (`TIMEOUT`); default: maxAttempts. */
  readonly maxStallAttempts?: number
}

export interface RetryInfo {
  readonly attempt: number
  readonly delayMs: number
  readonly error: string
}

export interface RetryHooks {
  onRetry?(info: RetryInfo): void
  /** Injectable for tests; default Math.random. */
  random?(): number
}

/** Whether a failure is worth another attempt: network errors, 408, 409, 429, 5xx, provider overload. */
export function isTransient(error: unknown): boolean {
  const e = error as {
    transient?: unknown
    status?: unknown
    statusCode?: unknown
    code?: unknown
    cause?: unknown
  }
  if (!e || typeof e !== 'object') return false
  if (e.transient === true) return true
  if (e.transient === false) return false
  const status =
    typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined
  if (status !== undefined) return isTransientStatus(status)
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true
  if (e.code === 'OVERLOADED') return true
  return e.cause !== undefined && e.cause !== error ? isTransient(e.cause) : false
}

function retryAfterMs(error: unknown): number | undefined {
  const v = (error as { retryAfterMs?: unknown })?.retryAfterMs
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined
}

/** The wait before attempt `attempt + 1`. */
export function backoffDelay(
  policy: RetryPolicy,
  attempt: number,
  error: unknown,
  random: () => number,
): number {
  const hinted = retryAfterMs(error)
  if (hinted !== undefined) return Math.min(hinted, policy.maxDelayMs)
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  // Equal jitter: at least half the exponential delay, so retries spread out but never stampede.
  return Math.round(exp / 2 + (random() * exp) / 2)
}

export function withRetry(adapter: LlmAdapter, policy: RetryPolicy, hooks: RetryHooks = {}): LlmAdapter {
  const random = hooks.random ?? Math.random
  return {
    async stream(request: LlmRequest, signal: AbortSignal): Promise<LlmResponse> {
      let stalls = 0
      for (let attempt = 1; ; attempt++) {
        try {
          return await openUntilFirstChunk(adapter, request, signal)
        } catch (error) {
          if (signal.aborted || attempt >= policy.maxAttempts || !isTransient(error)) throw error
          // A silent server cost a whole idle timeout; asking it as often as a fast 503 would keep the
          // user waiting for minutes (issue 9.6).
          if (
            (error as { code?: unknown }).code === 'TIMEOUT' &&
            ++stalls >= (policy.maxStallAttempts ?? Infinity)
          )
            throw error
          const delayMs = backoffDelay(policy, attempt, error, random)
          hooks.onRetry?.({ attempt, delayMs, error: error instanceof Error ? error.message : String(error) })
          await sleep(delayMs, signal)
          if (signal.aborted) throw error
        }
      }
    },
  }
}

/** Opens the stream and reads its first chunk, so a failure before it is still retryable. */
async function openUntilFirstChunk(
  adapter: LlmAdapter,
  request: LlmRequest,
  signal: AbortSignal,
): Promise<LlmResponse> {
  const response = await adapter.stream(request, signal)
  const iterator = response.chunks[Symbol.asyncIterator]()
  let first: IteratorResult<StreamChunk>
  try {
    first = await iterator.next()
  } catch (error) {
    response.final.catch(() => {})
    throw error
  }
  return {
    final: response.final,
    chunks: (async function* () {
      if (first.done) return
      yield first.value
      while (true) {
        const next = await iterator.next()
        if (next.done) return
        yield next.value
      }
    })(),
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })
}
