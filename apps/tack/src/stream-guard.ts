// A reader that goes away must not crash tack (issue 10 item 5): `tack run --json … | head -1` closes
// the pipe, and the next write fails with EPIPE — an unhandled stream error, a stack trace. Node ignores
// SIGPIPE, so tack handles it as a Unix tool would: stop writing to that stream, let the command wind
// down (run.ts cancels the turn, so the session is stored and its turn closed) and exit 141 (128 +
// SIGPIPE), the code a shell reports for a writer the pipe's reader left.
import type { Writable } from 'node:stream'

/** 128 + SIGPIPE (13): what `yes | head -1` reports for `yes`. */
export const EXIT_STDOUT_CLOSED = 141

export interface GuardedStream {
  /** Writes unless the reader has gone. */
  write(text: string): void
  /** Whether the reader went away. */
  closed(): boolean
  /** Called once, when the reader goes away. */
  onClosed(listener: () => void): void
}

export function guardStream(stream: Writable): GuardedStream {
  let closed = false
  const listeners: Array<() => void> = []
  const close = () => {
    if (closed) return
    closed = true
    for (const listener of listeners.splice(0)) listener()
  }
  // EPIPE (the reader left) or any other error of a standard stream: nothing more can be written
  // there, and the only place to report it may be the failing stream itself.
  stream.on('error', close)
  return {
    write(text) {
      if (closed) return
      try {
        stream.write(text)
      } catch {
        close()
      }
    },
    closed: () => closed,
    onClosed(listener) {
      if (closed) listener()
      else listeners.push(listener)
    },
  }
}
