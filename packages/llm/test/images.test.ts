// Images in requests (docs/decisions/0255-image-content.md), through each provider package to the
// loopback server, reading the body that went on the wire: Anthropic gets the image inside the
// tool_result; the Chat Completions wires get a note in the tool message and the image in one user
// message after the run of tool messages; a model without image input gets only the note.
import type { LlmRequest } from '@tack/agent'
import { type ContentBlock, imageBlock, type Message } from '@tack/session'
import { afterEach, describe, expect, test } from 'vitest'
import { acceptsImages, LlmConfig } from '../src/index.ts'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { adapterFor, drain, MODEL_OF, signal } from './helpers.ts'

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const image = imageBlock('image/png', PNG)
if (!image) throw new Error('the test image is not an image')

const call = (callId: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', callId, name: 'shot', arguments: '{}' }],
})
const result = (callId: string, content: readonly ContentBlock[]): Message => ({
  role: 'tool',
  callId,
  name: 'shot',
  content,
  isError: false,
})

/** A conversation whose last step called `shot`, which answered words and the image. */
function withImageResult(model: string, more: Message[] = []): LlmRequest {
  return {
    config: { model },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'take a picture' }] },
      call('c1'),
      result('c1', [{ type: 'text', text: 'here it is' }, image as ContentBlock]),
      ...more,
    ],
  }
}

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** The body the provider package sent for `request`, with `config` as the llm config. */
async function sentBody(request: LlmRequest, config: Record<string, unknown> = {}) {
  server = await startLoopbackServer({ script: [{ kind: 'text', text: 'seen' }] })
  await drain(await adapterFor(server, config).stream(request, signal()))
  const [sent] = server.requests
  if (!sent) throw new Error('no request reached the server')
  return { body: sent.body as { messages: Array<Record<string, unknown>> }, raw: sent.rawBody }
}

const occurrences = (text: string, part: string) => text.split(part).length - 1

describe('images reach a model that takes them', () => {
  test('Anthropic: the image is inside the tool_result content, once, as the base64 from the log', async () => {
    const { body, raw } = await sentBody(withImageResult(MODEL_OF.anthropic))
    const toolResult = ((body.messages.at(-1)?.content ?? []) as Array<Record<string, unknown>>).find(
      (part) => part.type === 'tool_result',
    )
    expect(toolResult?.content).toEqual([
      { type: 'text', text: 'here it is' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ])
    expect(occurrences(raw, PNG)).toBe(1)
  })

  test.each([
    ['openai', MODEL_OF.openai, {}],
    [
      'openai-compatible with images: true',
      MODEL_OF['openai-compatible'],
      {
        endpoints: { local: { kind: 'openai-compatible', images: true } },
      },
    ],
    [
      'openai-compatible listing the model',
      MODEL_OF['openai-compatible'],
      {
        endpoints: { local: { kind: 'openai-compatible', images: ['qwen3'] } },
      },
    ],
  ])(
    '%s: the tool message says where the image went; one user message after it carries it',
    async (_, model, config) => {
      const { body, raw } = await sentBody(withImageResult(model), config)
      const [tool, after] = body.messages.slice(-2)
      expect(tool).toMatchObject({ role: 'tool', tool_call_id: 'c1' })
      expect(tool?.content).toBe(
        'here it is\n[Image: image/png, 70 bytes, attached in the user message after the tool results]',
      )
      expect(after).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: '[Image from the result of shot (call c1)]' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      })
      expect(occurrences(raw, PNG)).toBe(1)
    },
  )

  test.each([
    [
      'Anthropic',
      MODEL_OF.anthropic,
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ],
    ['OpenAI', MODEL_OF.openai, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }],
  ])(
    '%s: a user image (docs/decisions/0285-user-images.md) is an image part after the words',
    async (_, model, part) => {
      const { body, raw } = await sentBody({
        config: { model },
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'what is this?' }, image as ContentBlock] },
        ],
      })
      const user = body.messages.find((m) => m.role === 'user')
      // (Anthropic's prompt-cache breakpoint may sit on the last block)
      expect(user?.content).toEqual([{ type: 'text', text: 'what is this?' }, expect.objectContaining(part)])
      expect(occurrences(raw, PNG)).toBe(1)
    },
  )

  test('Chat Completions: the images of parallel calls follow the last of their tool messages', async () => {
    const request = withImageResult(MODEL_OF.openai)
    const both: LlmRequest = {
      ...request,
      messages: [
        request.messages[0] as Message,
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', callId: 'c1', name: 'shot', arguments: '{}' },
            { type: 'tool-call', callId: 'c2', name: 'shot', arguments: '{}' },
          ],
        },
        result('c1', [image as ContentBlock]),
        result('c2', [image as ContentBlock]),
        { role: 'assistant', content: [{ type: 'text', text: 'two pictures' }] },
      ],
    }
    const { body } = await sentBody(both)
    expect(body.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
    ])
    const carrier = body.messages[4]?.content as Array<Record<string, unknown>>
    expect(carrier.filter((part) => part.type === 'image_url')).toHaveLength(2)
    expect(carrier[2]).toEqual({ type: 'text', text: '[Image from the result of shot (call c2)]' })
  })
})

describe('a model without image input gets a note and no image', () => {
  test.each([
    ['deepseek', MODEL_OF.deepseek, {}],
    ['openai-compatible by default', MODEL_OF['openai-compatible'], {}],
    [
      'anthropic with images: false',
      MODEL_OF.anthropic,
      {
        endpoints: { anthropic: { kind: 'anthropic', images: false } },
      },
    ],
  ])('%s', async (_, model, config) => {
    const { raw } = await sentBody(withImageResult(model), config)
    expect(raw).not.toContain(PNG)
    expect(raw).toContain(`[Image: image/png, 70 bytes, not shown: model ${model} takes no images]`)
  })

  test('a user message with an image: a file part for a model that takes images, a note otherwise', async () => {
    const request: LlmRequest = {
      config: { model: MODEL_OF.anthropic },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, image as ContentBlock] }],
    }
    const seen = await sentBody(request)
    // (the last message carries Anthropic's cache breakpoint as well)
    expect(seen.body.messages[0]?.content).toMatchObject([
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ])
    await server?.close()
    const refused = await sentBody({ ...request, config: { model: MODEL_OF.deepseek } })
    expect(refused.raw).not.toContain(PNG)
  })
})

describe('which models take images', () => {
  const endpoint = (kind: 'anthropic' | 'openai' | 'openai-compatible' | 'deepseek', images?: unknown) =>
    LlmConfig.parse({ endpoints: { e: { kind, ...(images === undefined ? {} : { images }) } } }).endpoints.e!

  test('the endpoint setting wins; then the catalogue; then the kind (anthropic yes, others no)', () => {
    expect(acceptsImages(endpoint('openai-compatible', true), 'qwen3')).toBe(true)
    expect(acceptsImages(endpoint('openai-compatible', ['llava']), 'qwen3')).toBe(false)
    expect(acceptsImages(endpoint('openai-compatible', ['llava']), 'llava')).toBe(true)
    expect(acceptsImages(endpoint('anthropic', false), 'claude-sonnet-4-5')).toBe(false)
    expect(acceptsImages(endpoint('openai-compatible'), 'gpt-4.1-mini')).toBe(true)
    expect(acceptsImages(endpoint('openai-compatible'), 'deepseek-chat')).toBe(false)
    expect(acceptsImages(endpoint('anthropic'), 'claude-opus-4-6')).toBe(true)
    expect(acceptsImages(endpoint('openai'), 'o9-unknown')).toBe(false)
    expect(acceptsImages(endpoint('deepseek'), 'deepseek-v9')).toBe(false)
  })

  test('images must be a boolean or a list of model ids', () => {
    expect(() => LlmConfig.parse({ endpoints: { e: { kind: 'openai', images: 'yes' } } })).toThrow(
      /endpoints\.e\.images: must be true, false or a list of model ids/,
    )
    expect(() => LlmConfig.parse({ endpoints: { e: { kind: 'openai', images: [''] } } })).toThrow(
      /endpoints\.e\.images/,
    )
  })
})
