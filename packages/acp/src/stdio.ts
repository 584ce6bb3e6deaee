// Serving on the process's stdio (50-acp.md requirement 1): stdout carries only the SDK's JSON-RPC
// lines, so console.log/info/debug are sent to stderr first; end of stdin disposes every session.
import { Readable, Writable } from 'node:stream'
import { ndJsonStream } from '@agentclientprotocol/sdk'
import type { AcpServer } from './server.ts'

export interface StdioStreams {
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: NodeJS.WritableStream
}

/** Serves until the client closes stdin, then disposes every session. */
export async function serveStdio(server: AcpServer, streams?: StdioStreams): Promise<void> {
  const stdin = streams?.stdin ?? process.stdin
  const stdout = streams?.stdout ?? process.stdout
  if (!streams) redirectConsoleToStderr()
  const stream = ndJsonStream(
    Writable.toWeb(stdout as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(stdin as Readable) as ReadableStream<Uint8Array>,
  )
  const connection = server.app().connect(stream)
  await connection.closed
  await server.disposeAll()
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
