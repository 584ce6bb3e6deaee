// The size limit of an incoming ACP message, enforced by tack before the SDK sees the line. The SDK's
// ndJsonStream ends the whole connection on a line over its `maxMessageBytes` (MessageTooLargeError
// errors its readable stream, the connection closes and `tack acp` exits 0 without a word). Here a line
// over the limit is dropped as it streams in (never buffered past the limit), the client gets a
// JSON-RPC error, stderr one line, and the lines after it are served as usual (50-acp.md requirement 14).
import { headKind, messageHead } from './message-head.ts'

/** JSON-RPC 2.0 Parse error: the text was not parsed (see `oversizeError`). */
export const PARSE_ERROR = -32700

/** The start of a dropped line kept to read its id from (the SDKs write `id` before `params`). */
const HEAD_BYTES = 4096

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

export interface LineGuardOptions {
  /** The largest line (without its line ending) passed on, in bytes. */
  readonly maxMessageBytes: number
  /** Sends one message to the client, in order with everything else the server writes. */
  readonly reply: (message: Readonly<Record<string, unknown>>) => Promise<void>
  /** Where the one line about a dropped message goes (stderr). */
  readonly warn: (line: string) => void
}

/**
 * Passes the client's newline-delimited bytes through, each line whole, except lines longer than the
 * limit: those are dropped and answered (a request by its id, a message whose id cannot be read with id
 * null). A dropped response to one of tack's own requests is turned into an error response for that
 * request, so the call that waits for it fails instead of waiting forever.
 */
export function guardLines(opts: LineGuardOptions): TransformStream<Uint8Array, Uint8Array> {
  const limit = opts.maxMessageBytes
  const encoder = new TextEncoder()
  let parts: Uint8Array[] = []
  let length = 0
  /** Set while the rest of an over-limit line streams past: its head and its size so far. */
  let dropping: { head: Uint8Array; bytes: number } | undefined

  const reset = () => {
    parts = []
    length = 0
    dropping = undefined
  }
  const add = (part: Uint8Array) => {
    if (part.byteLength === 0) return
    if (dropping) {
      dropping.bytes += part.byteLength
      return
    }
    // One byte of slack for a CR that the line ending will strip.
    if (length + part.byteLength > limit + 1) {
      dropping = { head: headOf([...parts, part]), bytes: length + part.byteLength }
      parts = []
      length = 0
      return
    }
    parts.push(part)
    length += part.byteLength
  }
  const endLine = async (controller: TransformStreamDefaultController<Uint8Array>) => {
    const line = concat(parts, length)
    const content = line[line.byteLength - 1] === CARRIAGE_RETURN ? line.byteLength - 1 : line.byteLength
    const over = dropping ?? (content > limit ? { head: headOf([line]), bytes: line.byteLength } : undefined)
    reset()
    if (over) return refuse(over, controller)
    if (line.byteLength > 0) controller.enqueue(withNewline(line))
  }
  const refuse = async (
    over: { head: Uint8Array; bytes: number },
    controller: TransformStreamDefaultController<Uint8Array>,
  ) => {
    const kind = headKind(messageHead(new TextDecoder().decode(over.head)))
    const error = oversizeError(over.bytes, limit)
    const told =
      kind.kind === 'request'
        ? `answered request ${JSON.stringify(kind.id)} with error ${PARSE_ERROR}`
        : kind.kind === 'response'
          ? `it answered tack's request ${JSON.stringify(kind.id)}, which fails`
          : `sent error ${PARSE_ERROR} with id null (its id could not be read)`
    opts.warn(
      `tack acp: dropped a message of ${over.bytes} bytes from the client, over the limit of ${limit} bytes (plugins.acp.maxMessageBytes); ${told}`,
    )
    if (kind.kind === 'response') {
      // To the SDK, as if the client had answered with this error: the waiting call fails.
      const reply = { jsonrpc: '2.0', id: kind.id, error }
      controller.enqueue(encoder.encode(`${JSON.stringify(reply)}\n`))
      return
    }
    await opts.reply({ jsonrpc: '2.0', id: kind.kind === 'request' ? kind.id : null, error })
  }

  return new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      let start = 0
      for (;;) {
        const at = chunk.indexOf(NEWLINE, start)
        if (at === -1) {
          add(chunk.subarray(start))
          return
        }
        add(chunk.subarray(start, at))
        await endLine(controller)
        start = at + 1
      }
    },
    async flush(controller) {
      // The last line may end without a newline, as the SDK accepts.
      if (length > 0 || dropping) await endLine(controller)
    },
  })
}

/**
 * The error for a message over the limit. -32700 (Parse error), not -32600 (Invalid Request): tack never
 * parsed the text, so it cannot say the JSON was read and found not to be a valid request; JSON-RPC 2.0
 * defines -32700 as an error "on the server while parsing the JSON text", and refusing to read past the
 * limit is one. It is also the code the SDK sends for a line it cannot parse, so clients handle it already.
 */
export function oversizeError(bytes: number, limit: number) {
  return {
    code: PARSE_ERROR,
    message: `Parse error: the message is ${bytes} bytes, over tack's limit of ${limit} bytes`,
    data: { bytes, maxMessageBytes: limit },
  }
}

function headOf(parts: readonly Uint8Array[]): Uint8Array {
  const head = new Uint8Array(HEAD_BYTES)
  let at = 0
  for (const part of parts) {
    if (at >= HEAD_BYTES) break
    const take = part.subarray(0, HEAD_BYTES - at)
    head.set(take, at)
    at += take.byteLength
  }
  return head.subarray(0, at)
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]
  const out = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

function withNewline(line: Uint8Array): Uint8Array {
  const out = new Uint8Array(line.byteLength + 1)
  out.set(line)
  out[line.byteLength] = NEWLINE
  return out
}
