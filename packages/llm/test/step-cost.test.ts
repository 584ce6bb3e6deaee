// The per-request work that must not grow with history (docs/decisions/0066-flat-memory.md): a model
// is built once per endpoint and model, and each frozen history message is converted once.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { deepFreeze } from '@tack/kernel'
import type { Message } from '@tack/session'
import { PROTOCOLS } from '../src/providers/adapter.ts'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { adapterFor, drain, KINDS, MODEL_OF, request, signal } from './helpers.ts'

let server: LoopbackServer
beforeEach(async () => {
  server = await startLoopbackServer()
})
afterEach(async () => {
  vi.restoreAllMocks()
  await server.close()
})

const history = (): Message[] => [
  { role: 'user', content: [{ type: 'text', text: 'read a.ts' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', callId: 'c1', name: 'read', arguments: '{"file_path":"a.ts"}' }],
  },
  {
    role: 'tool',
    callId: 'c1',
    name: 'read',
    content: [{ type: 'text', text: 'const a = 1' }],
    isError: false,
  },
]

describe.each(KINDS)('%s', (kind) => {
  test('three requests to one model build it once; another model gets its own', async () => {
    const built = vi.spyOn(PROTOCOLS[kind], 'model')
    const adapter = adapterFor(server)
    server.push({ kind: 'text', text: 'one' }, { kind: 'text', text: 'two' }, { kind: 'text', text: 'three' })
    for (let i = 0; i < 3; i++) await drain(await adapter.stream(request(MODEL_OF[kind]), signal()))
    expect(built).toHaveBeenCalledTimes(1)
    expect(server.requests).toHaveLength(3)
    server.push({ kind: 'text', text: 'four' })
    const other = MODEL_OF[kind].replace(/\/.*/, '/another-model')
    const { final } = await drain(await adapter.stream(request(other), signal()))
    expect(final.content).toEqual([{ type: 'text', text: 'four' }])
    expect(built).toHaveBeenCalledTimes(2)
  })

  test('a frozen message is converted once and reused, frozen, by later requests', () => {
    const messages = deepFreeze(history())
    const first = PROTOCOLS[kind].callOptions(request(MODEL_OF[kind], { messages }))
    const second = PROTOCOLS[kind].callOptions(
      request(MODEL_OF[kind], {
        messages: [...messages, { role: 'user', content: [{ type: 'text', text: 'next' }] }],
      }),
    )
    const conversation = (o: typeof first) => o.prompt.filter((m) => m.role !== 'system')
    expect(conversation(second)).toHaveLength(4)
    // Anthropic's cache breakpoints copy the messages they mark; the others send the cached object.
    if (kind !== 'anthropic') {
      for (let i = 0; i < 3; i++) expect(conversation(second)[i]).toBe(conversation(first)[i])
      expect(Object.isFrozen(conversation(first)[0])).toBe(true)
    }
    expect(conversation(second).slice(0, 3).map(strip)).toEqual(conversation(first).map(strip))
  })

  test('a mutable message is converted afresh each time, so an edit is sent', () => {
    const messages = history()
    const first = PROTOCOLS[kind].callOptions(request(MODEL_OF[kind], { messages }))
    const firstText = JSON.stringify(first.prompt)
    ;(messages[2] as unknown as { content: Array<{ type: 'text'; text: string }> }).content[0].text =
      'const a = 2'
    const second = PROTOCOLS[kind].callOptions(request(MODEL_OF[kind], { messages }))
    expect(firstText).toContain('const a = 1')
    expect(JSON.stringify(second.prompt)).toContain('const a = 2')
  })
})

/** A message without the provider options a protocol adds to its last ones. */
function strip(message: object): object {
  const { providerOptions: _, ...rest } = message as { providerOptions?: unknown }
  return rest
}
