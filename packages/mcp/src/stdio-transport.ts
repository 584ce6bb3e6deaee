// The SDK `Transport` over a stdio server's process (server-process.ts): the SDK's StdioClientTransport
// spawns its child in tack's own process group and cannot be told otherwise, so a server's
// grandchildren would outlive it (spec 55-mcp.md M1). The framing is the SDK's own (`ReadBuffer`,
// `serializeMessage`): one JSON-RPC message per line, no hand-written protocol.
//
// The process may be spawned before the transport exists (early-spawn.ts): `start` then only attaches.
// Nothing reaches the server before the client's `initialize`, so nothing on stdout is missed.
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { ServerProcess } from './server-process.ts'

export class GroupStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  readonly #process: ServerProcess
  /** The SDK's framing, bounded by `plugins.mcp.maxMessageBytes` (message-bound.ts says what passing it means). */
  readonly #buffer: ReadBuffer
  #started = false
  #closed = false

  constructor(process: ServerProcess, maxMessageBytes: number) {
    this.#process = process
    this.#buffer = new ReadBuffer({ maxBufferSize: maxMessageBytes })
  }

  get pid(): number | undefined {
    return this.#process.pid
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('the transport is already started')
    this.#started = true
    const child = this.#process.child
    if (!(await this.#process.spawned))
      throw this.#process.spawnError ?? new Error('the server did not spawn')
    if (this.#process.exited) throw new Error('the server exited before it was asked anything')
    child.stdout?.on('data', (chunk: Buffer) => {
      try {
        this.#buffer.append(chunk)
      } catch (error) {
        // Past `maxMessageBytes` (message-bound.ts): the message is not read, and the server is ended.
        this.onerror?.(error as Error)
        void this.close()
        return
      }
      this.#drain()
    })
    child.stdout?.on('error', (error) => this.onerror?.(error))
    child.stdin?.on('error', (error) => this.onerror?.(error))
    child.once('close', () => this.#closedBy())
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process.child.stdin
    if (this.#closed || !stdin || stdin.destroyed) return Promise.reject(new Error('Not connected'))
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', resolve)
    })
  }

  async close(): Promise<void> {
    await this.#process.end()
    this.#closedBy()
  }

  #closedBy(): void {
    if (this.#closed) return
    this.#closed = true
    this.#buffer.clear()
    this.onclose?.()
  }

  /** Every whole line in the buffer, as a message; a line that is not one is reported and skipped. */
  #drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null
      try {
        message = this.#buffer.readMessage()
      } catch (error) {
        this.onerror?.(error as Error)
        continue
      }
      if (message === null) return
      this.onmessage?.(message)
    }
  }
}
