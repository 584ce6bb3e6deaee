// Waiting for the servers' start (`ready`), cut short by a person: Ctrl-C, SIGTERM or an editor's cancel
// stops the wait at once, so tack never sits out a server's whole startup bound (up to an hour) after
// it was told to stop. The servers go on starting; the session's end closes them.

/** Settles when `ready` does or `signal` aborts; true when the servers' start settled. */
export function readyOrAborted(ready: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return ready.then(() => true)
  if (signal.aborted) return Promise.resolve(false)
  return new Promise((resolve) => {
    const onAbort = () => resolve(false)
    signal.addEventListener('abort', onAbort, { once: true })
    void ready.then(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(true)
    })
  })
}
