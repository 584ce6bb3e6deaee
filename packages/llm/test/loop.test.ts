// Real agent turns (the loop, sessions, the tools pipeline, the invariant checkers) against the
// real provider code over loopback HTTP: each wire protocol end to end, and R3's faults ending as a
// retry or an error result the model can see — never a crash, never an unpaired tool call.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createTestAgent, type TestAgent } from '@tack/agent/testing'
import type { SessionEvent, StreamChunk } from '@tack/session'
import { registerTool } from '@tack/tools'
import { echoTool } from '@tack/tools/testing'
import { createLlmPlugin, type ProviderKind } from '../src/index.ts'
import { type LoopbackEntry, type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { CANARY, ENV, KINDS, MODEL_OF } from './helpers.ts'

let server: LoopbackServer
let agent: TestAgent | undefined
beforeEach(async () => {
  server = await startLoopbackServer()
})
afterEach(async () => {
  await agent?.dispose()
  agent = undefined
  await server.close()
})

const user = (content: string) => ({ content, source: { kind: 'user' as const } })

async function boot(kind: ProviderKind, script: LoopbackEntry[], retry: Record<string, number> = {}) {
  server.push(...script)
  agent = await createTestAgent({
    plugins: [
      {
        plugin: createLlmPlugin({ env: ENV }),
        config: { baseUrl: server.baseUrl, retry: { baseDelayMs: 0, ...retry } },
      },
    ],
    setup: (ctx) => {
      registerTool(ctx, echoTool)
    },
    agentOptions: { config: { model: MODEL_OF[kind] } },
  })
  return agent
}

const ofType = <T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T) =>
  events.filter((e): e is SessionEvent<T> => e.type === type)

/** Tool calls in assistant messages minus tool results: 0 when every call is answered. */
function unpaired(events: readonly SessionEvent[]): number {
  const calls = ofType(events, 'assistant/message').flatMap((e) =>
    e.data.content.flatMap((b) => (b.type === 'tool-call' ? [b.callId] : [])),
  )
  const results = new Set(ofType(events, 'tool/result').map((e) => e.data.callId))
  return calls.filter((id) => !results.has(id)).length
}

describe.each(KINDS)('%s through a real agent turn', (kind) => {
  test('AL-20 a tool step then an answer: chunks, messages, the tool result and usage are logged', async () => {
    const usage = { inputTokens: 500, outputTokens: 40, cachedInputTokens: 300, cacheWriteTokens: 100 }
    const t = await boot(kind, [
      {
        kind: 'tool-calls',
        reasoning: 'I will echo',
        text: 'Echoing.',
        calls: [{ name: 'echo', args: { text: 'ping' } }],
        usage,
      },
      { kind: 'text', text: 'It said ping.', usage: { inputTokens: 600, outputTokens: 5 } },
    ])
    const outcome = await t.agent.send(user('echo ping'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    const events = t.events()
    const messages = ofType(events, 'assistant/message')
    expect(messages).toHaveLength(2)
    const first = messages[0].data
    expect(first.finishReason).toBe('tool-calls')
    expect(first.content.filter((b) => b.type !== 'reasoning')).toEqual([
      { type: 'text', text: 'Echoing.' },
      { type: 'tool-call', callId: 'call_1', name: 'echo', arguments: '{"text":"ping"}' },
    ])
    expect(first.usage).toEqual(
      kind === 'deepseek' ? { inputTokens: 500, outputTokens: 40, cachedInputTokens: 300 } : usage,
    )
    const result = ofType(events, 'tool/result')[0].data
    expect(result).toMatchObject({ callId: 'call_1', name: 'echo', isError: false })
    expect(result.content).toEqual([{ type: 'text', text: 'ping' }])
    expect(messages[1].data.content).toEqual([{ type: 'text', text: 'It said ping.' }])
    // Every chunk was logged before the message, in stream order.
    const chunks = ofType(events, 'assistant/chunk').map((e) => e.data.chunk as StreamChunk)
    expect(
      chunks
        .filter((c) => c.type === 'text-delta')
        .map((c) => (c as { text: string }).text)
        .join(''),
    ).toBe('Echoing.It said ping.')
    // The second request carried the call and its result back to the provider.
    expect(server.requests).toHaveLength(2)
    const second = server.requests[1].rawBody
    expect(second).toContain('call_1')
    expect(second).toContain('ping')
    if (kind === 'anthropic') expect(second).toContain('"signature":"sig-0"')
    expect(unpaired(events)).toBe(0)
    expect(t.statusViolations).toEqual([])
  })
})

describe('R3 faults in a real turn', () => {
  test('R3 429 then success: retried, one answer, the turn completes', async () => {
    const t = await boot('openai', [
      { kind: 'http-error', status: 429, retryAfter: 0 },
      { kind: 'text', text: 'after the limit' },
    ])
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(ofType(t.events(), 'assistant/message').map((e) => e.data.content)).toEqual([
      [{ type: 'text', text: 'after the limit' }],
    ])
    expect(server.requests).toHaveLength(2)
  })

  test('R3 500 on every attempt ends the turn error with the provider code, no message logged', async () => {
    const t = await boot(
      'anthropic',
      [
        { kind: 'http-error', status: 500 },
        { kind: 'http-error', status: 500 },
      ],
      { maxAttempts: 2 },
    )
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'HTTP_500' })
    expect(ofType(t.events(), 'assistant/message')).toHaveLength(0)
    expect(server.requests).toHaveLength(2)
  })

  test('R3 a truncated stream ends the turn error; its chunks stay logged; nothing is retried', async () => {
    const t = await boot('deepseek', [
      { kind: 'truncate', text: 'I was about to' },
      { kind: 'text', text: 'never sent' },
    ])
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toMatchObject({ kind: 'error' })
    const events = t.events()
    expect(ofType(events, 'assistant/chunk').map((e) => e.data.chunk)).toEqual([
      { type: 'text-delta', text: 'I was about to' },
    ])
    expect(ofType(events, 'assistant/message')).toHaveLength(0)
    expect(server.remaining).toBe(1)
  })

  test('R3 invalid tool-argument JSON reaches the tools pipeline as raw text → INVALID_ARGS the model sees', async () => {
    const t = await boot('openai-compatible', [
      { kind: 'tool-calls', calls: [{ name: 'echo', rawArguments: '{"text": "unterminated' }] },
      { kind: 'text', text: 'I will fix my JSON.' },
    ])
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    const events = t.events()
    expect(ofType(events, 'tool/call')[0].data.arguments).toBe('{"text": "unterminated')
    const result = ofType(events, 'tool/result')[0].data
    expect(result).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS' } })
    // The model saw the error result on the next request.
    const body = server.requests[1].body as { messages: { role: string; content: unknown }[] }
    expect(body.messages.find((m) => m.role === 'tool')?.content).toEqual(result.content[0].text)
    expect(unpaired(events)).toBe(0)
  })

  test('R3 an unknown tool gets an UNKNOWN_TOOL result and the turn goes on', async () => {
    const t = await boot('anthropic', [
      { kind: 'tool-calls', calls: [{ name: 'teleport', args: { to: 'mars' } }] },
      { kind: 'text', text: 'That tool does not exist.' },
    ])
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    const result = ofType(t.events(), 'tool/result')[0].data
    expect(result).toMatchObject({ name: 'teleport', isError: true, error: { code: 'UNKNOWN_TOOL' } })
    expect(server.requests[1].rawBody).toContain('"is_error":true')
    expect(unpaired(t.events())).toBe(0)
  })

  test('R3 an empty answer completes the turn with an empty message', async () => {
    const t = await boot('deepseek', [{ kind: 'text', text: '' }])
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(ofType(t.events(), 'assistant/message').map((e) => e.data.content)).toEqual([[]])
  })

  test('security 1: a provider echoing the canary key leaves no trace of it in the log', async () => {
    const t = await boot('openai', [{ kind: 'http-error', status: 401, echoAuth: true }])
    const outcome = await t.agent.send(user('q'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'HTTP_401' })
    expect((outcome.reason as { message: string }).message).toContain('[redacted]')
    expect(JSON.stringify(t.events())).not.toContain(CANARY)
    expect(JSON.stringify(server.requests)).not.toContain(CANARY)
  })
})
