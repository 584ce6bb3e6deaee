// Following something that changes by reading it again: every `pollMs` while the browser listens, one
// read at a time (a slow store never has two reads of one stream in flight), and a message only when the
// answer changed. Store reads are the only way to learn of events another process appended (SQLite has
// no change feed; 0360 says why polling is enough for a page).
import type { EventStream } from './sse.ts'

/** `read` answers the message to send, or undefined when nothing changed since its last answer. */
export function follow(
  stream: EventStream,
  pollMs: number,
  read: () => Promise<unknown | undefined>,
  onError: (error: unknown) => unknown,
): void {
  let timer: NodeJS.Timeout | undefined
  let lastError: string | undefined
  const tick = async () => {
    if (stream.closed) return
    try {
      const message = await read()
      lastError = undefined
      if (message !== undefined) stream.send(message)
    } catch (error) {
      // Said once while it lasts (an unknown session, a store gone away), not every poll.
      const text = String(onError(error))
      if (text !== lastError) stream.send({ error: text })
      lastError = text
    }
    if (!stream.closed) timer = setTimeout(tick, pollMs)
  }
  stream.onClose(() => clearTimeout(timer))
  void tick()
}

/** A `read` for `follow` that sends `value()`'s answer only when its JSON differs from the last sent. */
export function whenChanged(value: () => Promise<unknown>): () => Promise<unknown | undefined> {
  let last: string | undefined
  return async () => {
    const next = await value()
    const json = JSON.stringify(next)
    if (json === last) return undefined
    last = json
    return next
  }
}
