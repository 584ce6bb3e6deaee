// Each wire protocol through the real AI SDK provider package and real HTTP on loopback: text,
// reasoning, tool calls and usage come back as our chunks and final; our request goes out as the
// protocol's body (system, tools, config, history with tool calls, results and reasoning).
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { AssistantBlock, Message, Usage } from '@tack/session'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { adapterFor, drain, KINDS, MODEL_OF, request, signal } from './helpers.ts'

let server: LoopbackServer
beforeEach(async () => {
  server = await startLoopbackServer()
})
afterEach(async () => {
  await server.close()
})

const usage: Usage = {
  inputTokens: 1200,
  outputTokens: 80,
  cachedInputTokens: 1000,
  cacheWriteTokens: 150,
  reasoningTokens: 30,
}

describe.each(KINDS)('%s', (kind) => {
  const model = MODEL_OF[kind]
  // OpenAI's Chat Completions API returns no reasoning text; DeepSeek reports no cache writes.
  const hasReasoning = kind !== 'openai'
  const expectedUsage: Usage =
    kind === 'deepseek'
      ? { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000, reasoningTokens: 30 }
      : usage

  test('AL-20 text, reasoning, tool calls and usage (cache read/write, reasoning tokens) round-trip', async () => {
    server.push({
      kind: 'tool-calls',
      reasoning: 'the file should say',
      text: 'Reading it.',
      calls: [
        { name: 'read', args: { path: 'a.txt' } },
        { name: 'grep', args: { pattern: 'x' } },
      ],
      usage,
    })
    const { chunks, final } = await drain(await adapterFor(server).stream(request(model), signal()))
    const reasoning: AssistantBlock[] = hasReasoning
      ? [
          kind === 'anthropic'
            ? { type: 'reasoning', text: 'the file should say', signature: 'sig-0' }
            : { type: 'reasoning', text: 'the file should say' },
        ]
      : []
    expect(final).toEqual({
      content: [
        ...reasoning,
        { type: 'text', text: 'Reading it.' },
        { type: 'tool-call', callId: 'call_1', name: 'read', arguments: '{"path":"a.txt"}' },
        { type: 'tool-call', callId: 'call_2', name: 'grep', arguments: '{"pattern":"x"}' },
      ],
      finishReason: 'tool-calls',
      usage: expectedUsage,
    })
    // The chunks add up to the final answer, streamed in more than one delta, usage before finish.
    const text = chunks.flatMap((c) => (c.type === 'text-delta' ? [c.text] : []))
    expect(text.length).toBeGreaterThan(1)
    expect(text.join('')).toBe('Reading it.')
    expect(chunks.flatMap((c) => (c.type === 'reasoning-delta' ? [c.text] : [])).join('')).toBe(
      hasReasoning ? 'the file should say' : '',
    )
    const args = (id: string) =>
      chunks
        .flatMap((c) => (c.type === 'tool-call-delta' && c.callId === id ? [c.argumentsDelta] : []))
        .join('')
    expect(args('call_1')).toBe('{"path":"a.txt"}')
    expect(chunks.find((c) => c.type === 'tool-call-delta' && c.callId === 'call_2')).toMatchObject({
      name: 'grep',
    })
    expect(chunks.slice(-2)).toEqual([
      { type: 'usage', usage: expectedUsage },
      { type: 'finish', reason: 'tool-calls' },
    ])
  })

  test.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content-filter', 'content-filter'],
  ] as const)('AL-20 finish reason %s maps to %s', async (scripted, expected) => {
    server.push({ kind: 'text', text: 'partial', finishReason: scripted })
    const { final } = await drain(await adapterFor(server).stream(request(model), signal()))
    expect(final.finishReason).toBe(expected)
    expect(final.content).toEqual([{ type: 'text', text: 'partial' }])
  })

  test('R3 an empty answer is a completed answer with no content, not an error', async () => {
    server.push({ kind: 'text', text: '' })
    const { final } = await drain(await adapterFor(server).stream(request(model), signal()))
    expect(final.content).toEqual([])
    expect(final.finishReason).toBe('stop')
  })

  test('R3 invalid tool-argument JSON arrives as the raw text', async () => {
    server.push({ kind: 'tool-calls', calls: [{ name: 'read', rawArguments: '{"path": "a.txt"' }] })
    const { final } = await drain(await adapterFor(server).stream(request(model), signal()))
    expect(final.content).toEqual([
      { type: 'tool-call', callId: 'call_1', name: 'read', arguments: '{"path": "a.txt"' },
    ])
  })

  test('AL-20 the request carries model, system, tools as JSON Schema function tools and call config', async () => {
    server.push({ kind: 'text', text: 'ok' })
    await drain(
      await adapterFor(server).stream(
        request(model, {
          config: { model, maxTokens: 321, temperature: 0.25, topP: 0.5, stop: ['END'] },
          system: 'You are terse.',
          tools: [
            {
              name: 'read',
              description: 'Read a file',
              parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
            },
          ],
        }),
        signal(),
      ),
    )
    const logged = server.requests[0]
    const body = logged.body as Record<string, unknown>
    const modelId = model.slice(model.indexOf('/') + 1)
    expect(body.model).toBe(modelId)
    expect(body.stream).toBe(true)
    expect(logged.bytes).toBe(Buffer.byteLength(logged.rawBody))
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }
    if (kind === 'anthropic') {
      expect(logged.path).toBe('/v1/messages')
      // The package sends temperature alone: current Claude models reject temperature with top_p.
      expect(body).toMatchObject({ max_tokens: 321, temperature: 0.25, stop_sequences: ['END'] })
      expect(body.system).toEqual([
        { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } },
      ])
      expect(body.tools).toMatchObject([{ name: 'read', description: 'Read a file', input_schema: schema }])
    } else {
      expect(logged.path).toBe('/v1/chat/completions')
      expect(body).toMatchObject({ max_tokens: 321, stop: ['END'], stream_options: { include_usage: true } })
      // DeepSeek drops sampling settings its thinking models ignore only when thinking is on.
      expect(body).toMatchObject({ temperature: 0.25, top_p: 0.5 })
      expect((body.messages as unknown[])[0]).toEqual({ role: 'system', content: 'You are terse.' })
      expect(body.tools).toEqual([
        { type: 'function', function: { name: 'read', description: 'Read a file', parameters: schema } },
      ])
    }
  })
})

// A history with a signed reasoning block, text, two tool calls (one with invalid JSON), their
// results (one an error) and a plugin context message.
const history: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'look at a.txt' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'I should read it', signature: 'sig-abc' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool-call', callId: 'call_1', name: 'read', arguments: '{"path":"a.txt"}' },
      { type: 'tool-call', callId: 'call_2', name: 'read', arguments: '{"path": ' },
    ],
  },
  {
    role: 'tool',
    callId: 'call_1',
    name: 'read',
    content: [{ type: 'text', text: 'hello' }],
    isError: false,
  },
  {
    role: 'tool',
    callId: 'call_2',
    name: 'read',
    content: [{ type: 'text', text: 'INVALID_ARGS: not JSON' }],
    isError: true,
  },
]

async function sendHistory(model: string, messages: readonly Message[]): Promise<Record<string, unknown>> {
  server.push({ kind: 'text', text: 'done' })
  await drain(await adapterFor(server).stream(request(model, { system: 'sys', messages }), signal()))
  return server.requests.at(-1)!.body as Record<string, unknown>
}

describe('history on the wire', () => {
  test('AL-20 openai-compatible: tool calls verbatim, results as tool messages, reasoning as reasoning_content', async () => {
    const body = await sendHistory(MODEL_OF['openai-compatible'], history)
    expect(body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'look at a.txt' },
      {
        role: 'assistant',
        content: 'Reading.',
        reasoning_content: 'I should read it',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
          // Invalid JSON cannot be sent as JSON; it goes back as a JSON string of the raw text.
          { id: 'call_2', type: 'function', function: { name: 'read', arguments: '"{\\"path\\": "' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
      { role: 'tool', tool_call_id: 'call_2', content: 'INVALID_ARGS: not JSON' },
    ])
  })

  test('AL-20 deepseek: reasoning of the current tool exchange is sent back as reasoning_content', async () => {
    const body = await sendHistory(MODEL_OF.deepseek, history)
    const messages = body.messages as Record<string, unknown>[]
    expect(messages[2]).toMatchObject({
      role: 'assistant',
      content: 'Reading.',
      reasoning_content: 'I should read it',
      tool_calls: [
        { id: 'call_1', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
        { id: 'call_2', function: { name: 'read' } },
      ],
    })
    // After a new user message, earlier reasoning is dropped as DeepSeek's API requires.
    const later = await sendHistory(MODEL_OF.deepseek, [
      ...history,
      { role: 'assistant', content: [{ type: 'text', text: 'It says hello.' }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ])
    expect((later.messages as Record<string, unknown>[])[2].reasoning_content).toBeUndefined()
  })

  test('AL-20 anthropic: thinking goes back with its signature, tool results in one user turn, errors flagged', async () => {
    const body = await sendHistory(MODEL_OF.anthropic, history)
    const messages = body.messages as { role: string; content: Record<string, unknown>[] }[]
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(messages[1].content).toEqual([
      { type: 'thinking', thinking: 'I should read it', signature: 'sig-abc' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a.txt' } },
      expect.objectContaining({ type: 'tool_use', id: 'call_2', name: 'read' }),
    ])
    expect(messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_1', content: 'hello' },
      expect.objectContaining({
        type: 'tool_result',
        tool_use_id: 'call_2',
        content: 'INVALID_ARGS: not JSON',
        is_error: true,
      }),
    ])
  })

  test('AL-20 anthropic: reasoning without a signature (from another provider) is not sent', async () => {
    const body = await sendHistory(MODEL_OF.anthropic, [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'unsigned thoughts' },
          { type: 'text', text: 'a' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'q2' }] },
    ])
    expect(JSON.stringify(body)).not.toContain('unsigned thoughts')
  })

  test('AL-20 anthropic: a redacted thinking block survives the log and goes back as redacted_thinking', async () => {
    const body = await sendHistory(MODEL_OF.anthropic, [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '', signature: 'redacted_thinking:opaque-data' },
          { type: 'tool-call', callId: 'call_9', name: 'read', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        callId: 'call_9',
        name: 'read',
        content: [{ type: 'text', text: 'x' }],
        isError: false,
      },
    ])
    const assistant = (body.messages as { content: unknown[] }[])[1]
    expect(assistant.content[0]).toEqual({ type: 'redacted_thinking', data: 'opaque-data' })
  })

  test('AL-20 anthropic prompt caching: breakpoints on the last tool, system, the previous request end and the last message', async () => {
    server.push({ kind: 'text', text: 'ok' })
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      { role: 'assistant', content: [{ type: 'tool-call', callId: 'c1', name: 'read', arguments: '{}' }] },
      { role: 'tool', callId: 'c1', name: 'read', content: [{ type: 'text', text: 'r1' }], isError: false },
      { role: 'assistant', content: [{ type: 'tool-call', callId: 'c2', name: 'read', arguments: '{}' }] },
      { role: 'tool', callId: 'c2', name: 'read', content: [{ type: 'text', text: 'r2' }], isError: false },
    ]
    await drain(
      await adapterFor(server).stream(
        request(MODEL_OF.anthropic, {
          system: 'sys',
          tools: [
            { name: 'read', description: 'r', parameters: { type: 'object' } },
            { name: 'grep', description: 'g', parameters: { type: 'object' } },
          ],
          messages,
        }),
        signal(),
      ),
    )
    const body = server.requests[0].body as {
      tools: Record<string, unknown>[]
      messages: { content: Record<string, unknown>[] }[]
    }
    const marked = (block: Record<string, unknown>) => block.cache_control !== undefined
    expect(body.tools.map(marked)).toEqual([false, true])
    // user 'first' · assistant c1 · user [r1] · assistant c2 · user [r2]
    expect(body.messages.map((m) => m.content.map(marked))).toEqual([
      [false],
      [false],
      [true], // the end of the previous request
      [false],
      [true], // the last message
    ])
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(4)
  })

  test('AL-20 an empty assistant answer in the history is left out of the request', async () => {
    const body = await sendHistory(MODEL_OF['openai-compatible'], [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    ])
    expect((body.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user', 'user'])
  })

  test('AL-20 providerOptions pass through to the provider package', async () => {
    server.push({ kind: 'text', text: 'ok' })
    const model = MODEL_OF['openai-compatible']
    await drain(
      await adapterFor(server).stream(
        request(model, { config: { model, providerOptions: { local: { num_ctx: 8192 } } } }),
        signal(),
      ),
    )
    expect(server.requests[0].body).toMatchObject({ num_ctx: 8192 })
  })
})
