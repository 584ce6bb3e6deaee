// The size guard in front of the SDK's ndJsonStream (line-guard.ts, message-head.ts): whole lines pass,
// a line over the limit is dropped and answered, a dropped response to tack's own request fails that
// request, and the SDK behind the guard never sees a line it would end the connection over.
import { DEFAULT_MAX_MESSAGE_BYTES, ndJsonStream } from '@agentclientprotocol/sdk'
import { expect, test } from 'vitest'
import { AcpConfig } from '../src/config.ts'
import { guardLines } from '../src/line-guard.ts'
import { headKind, messageHead } from '../src/message-head.ts'

const encoder = new TextEncoder()

/** Feeds `chunks` through the guard into the SDK's ndJsonStream; returns what each side saw. */
async function through(chunks: readonly string[], limit: number) {
  const replies: Array<Record<string, unknown>> = []
  const warnings: string[] = []
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      controller.close()
    },
  }).pipeThrough(
    guardLines({
      maxMessageBytes: limit,
      reply: async (message) => {
        replies.push({ ...message })
      },
      warn: (line) => warnings.push(line),
    }),
  )
  const sink = new WritableStream<Uint8Array>()
  const { readable } = ndJsonStream(sink, input, { maxMessageBytes: limit })
  const received: unknown[] = []
  for await (const message of readable) received.push(message)
  return { received, replies, warnings }
}

/** A JSON line of exactly `bytes` bytes (before the newline). */
function lineOf(bytes: number, fields: Record<string, unknown> = { jsonrpc: '2.0', method: 'x' }): string {
  const bare = JSON.stringify({ ...fields, pad: '' })
  return JSON.stringify({ ...fields, pad: 'p'.repeat(bytes - bare.length) })
}

test('the default limit is the ACP SDK’s own', () => {
  expect(AcpConfig.parse({}).maxMessageBytes).toBe(DEFAULT_MAX_MESSAGE_BYTES)
})

test('a line at the limit reaches the SDK, one byte over is dropped; the lines around it pass, in any chunking', async () => {
  const limit = 65_536
  const at = lineOf(limit)
  const over = lineOf(limit + 1, { jsonrpc: '2.0', id: 7, method: 'x' })
  const text = `${at}\n${over}\r\n{"jsonrpc":"2.0","method":"after"}\n`
  // one chunk, and cut into 1000-byte pieces so lines span chunks
  const pieces = text.match(/[\s\S]{1,1000}/g) ?? []
  for (const chunks of [[text], pieces]) {
    const { received, replies, warnings } = await through(chunks, limit)
    expect(received).toEqual([JSON.parse(at), { jsonrpc: '2.0', method: 'after' }])
    expect(replies).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32700,
          message: `Parse error: the message is ${limit + 2} bytes, over tack's limit of ${limit} bytes`,
          data: { bytes: limit + 2, maxMessageBytes: limit },
        },
      },
    ])
    expect(warnings).toHaveLength(1)
  }
})

test('a CRLF line at the limit passes (the CR is not counted, as the SDK counts)', async () => {
  const at = lineOf(65_536)
  const { received, replies } = await through([`${at}\r\n`], 65_536)
  expect(received).toEqual([JSON.parse(at)])
  expect(replies).toEqual([])
})

test('an over-limit response to tack’s own request becomes an error response for it; an unreadable id gets id null', async () => {
  const limit = 65_536
  const response = lineOf(limit + 10, { jsonrpc: '2.0', id: 3, result: {} }).replace(
    '"result":{},',
    '"result":{"content":"',
  )
  const unknown = lineOf(limit + 10, { jsonrpc: '2.0', method: 'session/prompt', params: {} })
  // the last line has no newline and is still read at the end
  const { received, replies, warnings } = await through([`${response}\n`, unknown], limit)
  expect(received).toEqual([
    {
      jsonrpc: '2.0',
      id: 3,
      error: expect.objectContaining({
        code: -32700,
        data: expect.objectContaining({ maxMessageBytes: limit }),
      }),
    },
  ])
  expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) }])
  expect(warnings[0]).toContain("it answered tack's request 3, which fails")
  expect(warnings[1]).toContain('sent error -32700 with id null (its id could not be read)')
})

test('the head: only top-level scalar fields before the first object or array are read', () => {
  expect(messageHead('{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"id":9')).toEqual({
    keys: ['jsonrpc', 'id', 'method', 'params'],
    id: 7,
  })
  expect(messageHead(' { "id" : "a\\"b" , "method":"m"')).toEqual({ keys: ['id', 'method'], id: 'a"b' })
  // a nested id is not the message's; an id cut off by the end of the head is not read
  expect(messageHead('{"jsonrpc":"2.0","params":{"id":1},"id":2')).toEqual({ keys: ['jsonrpc', 'params'] })
  expect(messageHead('{"method":"m","id":12')).toEqual({ keys: ['method', 'id'] })
  expect(messageHead('[{"id":1}]')).toEqual({ keys: [] })
  expect(headKind(messageHead('{"id":1,"method":"m","params":{'))).toEqual({ kind: 'request', id: 1 })
  expect(headKind(messageHead('{"id":1,"result":{'))).toEqual({ kind: 'response', id: 1 })
  expect(headKind(messageHead('{"id":1,"error":{'))).toEqual({ kind: 'response', id: 1 })
  // an id with neither method nor result seen yet could be either: never answered by id
  expect(headKind(messageHead('{"id":1,"params":{'))).toEqual({ kind: 'unknown' })
  expect(headKind(messageHead('{"id":null,"method":"m"'))).toEqual({ kind: 'unknown' })
})
