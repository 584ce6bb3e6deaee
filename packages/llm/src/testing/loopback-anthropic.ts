// The loopback server's Anthropic Messages wire (`POST /v1/messages`, SSE events `message_start`,
// `content_block_start` / `_delta` / `_stop`, `message_delta`, `message_stop`): reasoning as a
// `thinking` block with a `signature_delta`, tool calls as `tool_use` blocks with
// `input_json_delta`, usage split into uncached input, cache reads and cache writes (our
// `inputTokens` includes both).
import type { FinishReason, Usage } from '@tack/session'
import { halves } from './loopback-script.ts'
import { partialPieces, type RenderContext, type WireRenderer } from './loopback-wire.ts'

const event = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

const STOP: Record<FinishReason, string> = {
  stop: 'end_turn',
  'tool-calls': 'tool_use',
  length: 'max_tokens',
  'content-filter': 'refusal',
  other: 'other',
}

function start(ctx: RenderContext, usage?: Usage): string {
  const read = usage?.cachedInputTokens ?? 0
  const write = usage?.cacheWriteTokens ?? 0
  return event('message_start', {
    message: {
      id: `msg_${ctx.seq}`,
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage ? usage.inputTokens - read - write : 0,
        cache_creation_input_tokens: write,
        cache_read_input_tokens: read,
        output_tokens: 1,
      },
    },
  })
}

export const anthropicWire: WireRenderer = {
  answer(plan, ctx) {
    const out = [start(ctx, plan.usage)]
    let index = 0
    const block = (contentBlock: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
      out.push(event('content_block_start', { index, content_block: contentBlock }))
      for (const delta of deltas) out.push(event('content_block_delta', { index, delta }))
      out.push(event('content_block_stop', { index }))
      index++
    }
    if (plan.reasoning)
      block({ type: 'thinking', thinking: '', signature: '' }, [
        ...halves(plan.reasoning).map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature: plan.signature },
      ])
    if (plan.text)
      block(
        { type: 'text', text: '' },
        halves(plan.text).map((text) => ({ type: 'text_delta', text })),
      )
    for (const call of plan.calls)
      block(
        { type: 'tool_use', id: call.id, name: call.name, input: {} },
        halves(call.args).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
      )
    out.push(
      event('message_delta', {
        delta: { stop_reason: STOP[plan.finishReason], stop_sequence: null },
        usage: {
          output_tokens: plan.usage?.outputTokens ?? 0,
          ...(plan.usage?.reasoningTokens
            ? { output_tokens_details: { thinking_tokens: plan.usage.reasoningTokens } }
            : {}),
        },
      }),
    )
    out.push(event('message_stop', {}))
    return out
  },
  partial(text, chunks, ctx) {
    return [
      start(ctx),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ...partialPieces(text, chunks).map((t) =>
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } }),
      ),
    ]
  },
  endWithoutFinish: () => [event('content_block_stop', { index: 0 })],
  keepAlive: () => event('ping', {}),
  streamError: (message, type) => event('error', { error: { type, message } }),
  errorBody: (message, type) => ({ type: 'error', error: { type, message } }),
}
