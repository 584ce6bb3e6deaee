// The loopback server's Responses wire (the one the Codex CLI speaks, for bench/overhead's P1
// comparison), read by the AI SDK's own Responses client: text and a function call arrive whole.
import { createOpenAI } from '@ai-sdk/openai'
import { afterEach, expect, test } from 'vitest'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

test('POST /v1/responses streams a message item and a function_call item the Responses client reads', async () => {
  server = await startLoopbackServer({
    script: [
      {
        kind: 'tool-calls',
        text: 'Reading it.',
        calls: [{ name: 'read', args: { file_path: 'a.ts' } }],
        usage: { inputTokens: 120, outputTokens: 7 },
      },
    ],
  })
  const model = createOpenAI({ baseURL: server.baseUrl, apiKey: 'loopback' }).responses('bench')
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'read a.ts' }] }],
    tools: [
      {
        type: 'function',
        name: 'read',
        inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } },
      },
    ],
  })
  let text = ''
  const calls: Array<{ toolName: string; input: string }> = []
  let finish: { finishReason?: unknown; usage?: { inputTokens?: unknown } } = {}
  for await (const part of stream as unknown as AsyncIterable<Record<string, unknown>>) {
    if (part.type === 'text-delta') text += String(part.delta)
    if (part.type === 'tool-call') calls.push({ toolName: String(part.toolName), input: String(part.input) })
    if (part.type === 'finish') finish = part as typeof finish
  }
  expect(text).toBe('Reading it.')
  expect(calls).toEqual([{ toolName: 'read', input: '{"file_path":"a.ts"}' }])
  expect(JSON.stringify(finish.finishReason)).toContain('tool')
  expect(JSON.stringify(finish.usage)).toContain('120')
  expect(server.requests[0]).toMatchObject({ path: '/v1/responses', protocol: 'responses', entry: 0 })
})
