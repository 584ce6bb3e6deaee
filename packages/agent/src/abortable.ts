/**
 * Iterates `source` until it ends or `signal` aborts, whichever is first; on abort the source's
 * iterator is asked to return (without waiting for it, since a hung stream may never answer).
 */
export async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  if (signal.aborted) return
  const iterator = source[Symbol.asyncIterator]()
  let onAbort: () => void = () => {}
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted')
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    while (true) {
      const pending = iterator.next()
      // A hung `next()` that rejects after an abort must not become an unhandled rejection.
      pending.catch(() => {})
      const next = await Promise.race([pending, aborted])
      if (next === 'aborted') {
        iterator.return?.()?.catch?.(() => {})
        return
      }
      if (next.done) return
      yield next.value
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** What `settledOrAborted` gives when the signal won. */
export const ABORTED: unique symbol = Symbol('aborted')

/**
 * `promise`'s value, or `ABORTED` as soon as `signal` aborts, whichever comes first: a cancel is not
 * held up by work that ignores it. A rejection that comes after the abort is swallowed.
 */
export function settledOrAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    promise.catch(() => {})
    return Promise.resolve(ABORTED)
  }
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {})
      resolve(ABORTED)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
