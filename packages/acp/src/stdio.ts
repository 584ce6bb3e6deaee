// Serving on the process's stdio (50-acp.md requirement 1): stdout carries only JSON-RPC lines, so
// console.log/info/debug are sent to stderr first; end of stdin disposes every session. Incoming lines
// pass tack's size guard (line-guard.ts) before the SDK's ndJsonStream, whose own limit would end the
// connection; the guard's answers and the SDK's messages share one ordered writer.
import { Readable, Writable } from 'node:stream'
import { ndJsonStream } from '@agentclientprotocol/sdk'
import { AcpConfig } from './config.ts'
import { guardLines } from './line-guard.ts'
import type { AcpServer } from './server.ts'

export interface StdioStreams {
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: NodeJS.WritableStream
}

export interface StdioOptions {
  /** The largest incoming message in bytes (`plugins.acp.maxMessageBytes`); default the config's. */
  readonly maxMessageBytes?: number
  /** Where the line about a dropped message goes; default stderr. */
  readonly warn?: (line: string) => void
}

/** Serves until the client closes stdin, then disposes every session. */
export async function serveStdio(
  server: AcpServer,
  streams?: StdioStreams,
  opts: StdioOptions = {},
): Promise<void> {
  const stdin = streams?.stdin ?? process.stdin
  const stdout = streams?.stdout ?? process.stdout
  if (!streams) redirectConsoleToStderr()
  const maxMessageBytes = opts.maxMessageBytes ?? AcpConfig.parse({}).maxMessageBytes
  const output = orderedWriter(Writable.toWeb(stdout as Writable) as WritableStream<Uint8Array>)
  const encoder = new TextEncoder()
  const input = (Readable.toWeb(stdin as Readable) as ReadableStream<Uint8Array>).pipeThrough(
    guardLines({
      maxMessageBytes,
      reply: (message) => output.write(encoder.encode(`${JSON.stringify(message)}\n`)),
      warn: opts.warn ?? ((line) => process.stderr.write(`${line}\n`)),
    }),
  )
  const stream = ndJsonStream(output.stream, input, { maxMessageBytes })
  const connection = server.app().connect(stream)
  await connection.closed
  await server.disposeAll()
}

/** One writer for the SDK's lines and tack's own: each write whole, in the order asked. */
function orderedWriter(target: WritableStream<Uint8Array>) {
  const writer = target.getWriter()
  let last: Promise<void> = Promise.resolve()
  const write = (bytes: Uint8Array): Promise<void> => {
    const next = last.then(() => writer.write(bytes))
    last = next.catch(() => {})
    return next
  }
  return { write, stream: new WritableStream<Uint8Array>({ write }) }
}

/**
 * Plugins and libraries that print with console.log would corrupt the protocol stream; `tack acp`
 * calls this before it loads any plugin (a plugin may print while it loads).
 */
export function redirectConsoleToStderr(): void {
  const toStderr = (...args: unknown[]) => console.error(...args)
  console.log = toStderr
  console.info = toStderr
  console.debug = toStderr
}
