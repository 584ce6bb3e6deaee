// Server-sent events over Node's own http (no library needed): one `data:` line per JSON message,
// a comment line every `keepAliveMs` so proxies and the browser keep an idle stream open.
import type { ServerResponse } from 'node:http'

export interface EventStream {
  send(message: unknown): void
  readonly closed: boolean
  onClose(fn: () => void): void
}

/** `redact` is applied to each message's JSON before it is written (server.ts `WebServerOptions.redact`). */
export function openEventStream(
  res: ServerResponse,
  redact: (text: string) => string = (text) => text,
  keepAliveMs = 15_000,
): EventStream {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  })
  res.write(': open\n\n')
  let closed = false
  const closers: Array<() => void> = []
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs)
  keepAlive.unref()
  res.on('close', () => {
    closed = true
    clearInterval(keepAlive)
    for (const fn of closers) fn()
  })
  return {
    // JSON.stringify never writes a raw newline, so one `data:` line holds the whole message.
    send: (message) => {
      if (!closed) res.write(`data: ${redact(JSON.stringify(message))}\n\n`)
    },
    get closed() {
      return closed
    },
    onClose: (fn) => closers.push(fn),
  }
}
