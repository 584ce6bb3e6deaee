// A provider's "the request does not fit the context window" answer, in each provider's real wording and
// over the real wire, becomes `LlmError` code CONTEXT_TOO_LONG (not transient), which compaction answers
// with one compaction and one retry (35-compaction.md CP-2; issue 12 item 1).
import { afterEach, beforeEach, expect, test } from 'vitest'
import { LlmError } from '@tack/agent'
import { isContextTooLong } from '../src/index.ts'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { adapterFor, MODEL_OF, request, signal } from './helpers.ts'

let server: LoopbackServer
beforeEach(async () => {
  server = await startLoopbackServer()
})
afterEach(async () => {
  await server.close()
})

const OPENAI_BODY = {
  error: {
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130021 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
}
const DEEPSEEK_BODY = {
  error: {
    message:
      "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens (135904 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_request_error',
  },
}
const ANTHROPIC_BODY = {
  type: 'error',
  error: { type: 'invalid_request_error', message: 'prompt is too long: 208432 tokens > 200000 maximum' },
}
const LLAMA_CPP_BODY = {
  error: {
    code: 400,
    message: 'the request exceeds the available context size, try increasing it',
    type: 'exceed_context_size_error',
  },
}

const CASES = [
  ['OpenAI', MODEL_OF.openai, OPENAI_BODY],
  ['DeepSeek', MODEL_OF.deepseek, DEEPSEEK_BODY],
  ['an OpenAI-compatible llama.cpp server', MODEL_OF['openai-compatible'], LLAMA_CPP_BODY],
  ['Anthropic', MODEL_OF.anthropic, ANTHROPIC_BODY],
] as const

test.each(CASES)(
  '%s: its 400 "context too long" answer is CONTEXT_TOO_LONG, not retried',
  async (_name, model, body) => {
    server.push({ kind: 'http-error', status: 400, body })
    let error: unknown
    try {
      await adapterFor(server).stream(request(model), signal())
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(LlmError)
    expect(error).toMatchObject({ code: 'CONTEXT_TOO_LONG', status: 400, transient: false })
  },
)

test('an ordinary 400 stays HTTP_400, and a 5xx never reads as context too long', async () => {
  server.push({ kind: 'http-error', status: 400 })
  await expect(adapterFor(server).stream(request(MODEL_OF.openai), signal())).rejects.toMatchObject({
    code: 'HTTP_400',
  })
  expect(isContextTooLong(500, "This model's maximum context length is 8192 tokens")).toBe(false)
  expect(isContextTooLong(400, 'Invalid value for temperature')).toBe(false)
  expect(isContextTooLong(undefined, 'prompt is too long: 9 tokens > 8 maximum')).toBe(true)
})
