// Bounds on a provider that goes silent (docs/decisions/0160-stalled-model-streams.md), measured on
// the provider's own bytes at the HTTP layer, below the AI SDK's SSE parsing:
// - `first-byte`: from sending the request until the response's headers arrive;
// - `idle`: while we wait for the next bytes of the response body.
// The idle clock runs only while a read of the body is pending, so a slow consumer (the loop logging
// a chunk, a terminal that blocks) never counts as provider silence, and any byte counts as life,
// including SSE comments (`: keep-alive`) and Anthropic `ping` events, which yield no stream part.
// When a bound passes, the watchdog aborts the request's signal, which is the fetch's signal, so the
// socket is closed rather than left to hang.

export interface StallBounds {
  /** Milliseconds from sending the request to the response's headers; 0 disables. */
  readonly firstByteTimeoutMs: number
  /** Milliseconds of silence while waiting for body bytes; 0 disables. */
  readonly idleTimeoutMs: number
}

export type StallPhase = 'first-byte' | 'idle'

export class StallWatchdog {
  readonly #controller = new AbortController()
  readonly #bounds: StallBounds
  #timer: ReturnType<typeof setTimeout> | undefined
  #stalled: StallPhase | undefined

  constructor(bounds: StallBounds) {
    this.#bounds = bounds
  }

  /** Aborted when a bound passes. */
  get signal(): AbortSignal {
    return this.#controller.signal
  }

  /** Which bound passed, if one did. */
  get stalled(): StallPhase | undefined {
    return this.#stalled
  }

  /** The bound of a phase in ms (0: none). */
  boundOf(phase: StallPhase): number {
    switch (phase) {
      case 'first-byte':
        return this.#bounds.firstByteTimeoutMs
      case 'idle':
        return this.#bounds.idleTimeoutMs
      default: {
        const never: never = phase
        throw new Error(`unknown stall phase ${String(never)}`)
      }
    }
  }

  /** The request is on its way: its response's headers are due within the first-byte bound. */
  requestSent(): void {
    this.#arm('first-byte')
  }

  /** A read of the response (or its body) is pending: the provider owes us bytes. */
  awaitingBytes(): void {
    this.#arm('idle')
  }

  /** Headers or body bytes arrived, or the read ended: nothing is owed until the next read. */
  received(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  stop(): void {
    this.received()
  }

  #arm(phase: StallPhase): void {
    clearTimeout(this.#timer)
    const ms = this.boundOf(phase)
    if (ms <= 0 || this.#stalled) return
    this.#timer = setTimeout(() => {
      this.#stalled = phase
      this.#controller.abort(new Error(`no bytes from the provider for ${ms} ms (${phase})`))
    }, ms)
    // An abandoned response must not keep the process alive until the bound.
    this.#timer.unref()
  }
}

// The AI SDK models are built once per endpoint and reused (adapter.ts), so their `fetch` cannot close
// over one request's watchdog; each request's abort signal, which the packages hand to `fetch`
// unchanged, finds it instead.
const watchdogs = new WeakMap<AbortSignal, StallWatchdog>()

/** A signal for one request that aborts with `signal` or when `watchdog` sees a stall. */
export function watchedSignal(signal: AbortSignal, watchdog: StallWatchdog): AbortSignal {
  const combined = AbortSignal.any([signal, watchdog.signal])
  watchdogs.set(combined, watchdog)
  return combined
}

/**
 * The `fetch` every provider package is given: the global fetch, timed by the watchdog registered
 * for the request's signal (none: untimed).
 */
export const watchedFetch: typeof globalThis.fetch = async (input, init) => {
  const watchdog = init?.signal ? watchdogs.get(init.signal) : undefined
  if (!watchdog) return globalThis.fetch(input, init)
  watchdog.requestSent()
  let response: Response
  try {
    response = await globalThis.fetch(input, init)
  } finally {
    watchdog.received()
  }
  if (!response.body) return response
  return new Response(timedBody(response.body, watchdog), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
}

/** The body, pulled only on demand (high-water mark 0), with the idle clock running during each read. */
function timedBody(body: ReadableStream<Uint8Array>, watchdog: StallWatchdog): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        watchdog.awaitingBytes()
        try {
          const next = await reader.read()
          watchdog.received()
          if (next.done) controller.close()
          else controller.enqueue(next.value)
        } catch (error) {
          watchdog.received()
          controller.error(error)
        }
      },
      cancel(reason) {
        watchdog.received()
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
