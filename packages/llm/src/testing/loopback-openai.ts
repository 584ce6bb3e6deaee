// The loopback server's OpenAI Chat Completions wire (`POST /v1/chat/completions`, SSE `data:`
// chunks, `[DONE]`): reasoning as `reasoning_content` deltas (DeepSeek and compatible servers),
// tool calls as indexed `tool_calls` deltas, and usage in the final chunk when
// `stream_options.include_usage` asks for it, with both OpenAI's cache fields
// (`prompt_tokens_details.cached_tokens` / `cache_write_tokens`) and DeepSeek's
// (`prompt_cache_hit_tokens` / `prompt_cache_miss_tokens`).
import type { FinishReason, Usage } from '@tack/session'
import { halves } from './loopback-script.ts'
import { partialPieces, type RenderContext, type WireRenderer } from './loopback-wire.ts'

const frame = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`

const FINISH: Record<FinishReason, string> = {
  stop: 'stop',
  'tool-calls': 'tool_calls',
  length: 'length',
  'content-filter': 'content_filter',
  other: 'other',
}

function chunk(ctx: RenderContext, delta: Record<string, unknown>, finishReason: string | null = null) {
  return frame({
    id: `chatcmpl-${ctx.seq}`,
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: ctx.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })
}

export function openaiUsage(usage: Usage) {
  const read = usage.cachedInputTokens ?? 0
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: read, cache_write_tokens: usage.cacheWriteTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    prompt_cache_hit_tokens: read,
    prompt_cache_miss_tokens: usage.inputTokens - read,
  }
}

export const openaiWire: WireRenderer = {
  answer(plan, ctx) {
    const out = [chunk(ctx, { role: 'assistant', content: '' })]
    if (plan.reasoning)
      for (const piece of halves(plan.reasoning)) out.push(chunk(ctx, { reasoning_content: piece }))
    for (const piece of halves(plan.text)) out.push(chunk(ctx, { content: piece }))
    plan.calls.forEach((call, index) => {
      out.push(
        chunk(ctx, {
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      )
      for (const piece of halves(call.args))
        out.push(chunk(ctx, { tool_calls: [{ index, function: { arguments: piece } }] }))
    })
    out.push(chunk(ctx, {}, FINISH[plan.finishReason]))
    if (ctx.includeUsage && plan.usage)
      out.push(
        frame({
          id: `chatcmpl-${ctx.seq}`,
          object: 'chat.completion.chunk',
          created: 1700000000,
          model: ctx.model,
          choices: [],
          usage: openaiUsage(plan.usage),
        }),
      )
    out.push(frame('[DONE]'))
    return out
  },
  partial(text, chunks, ctx) {
    return [
      chunk(ctx, { role: 'assistant', content: '' }),
      ...partialPieces(text, chunks).map((t) => chunk(ctx, { content: t })),
    ]
  },
  endWithoutFinish: () => [frame('[DONE]')],
  // Servers and gateways send SSE comments while the model is busy (OpenRouter, DeepSeek's queue).
  keepAlive: () => ': keep-alive\n\n',
  streamError: (message, type) => frame({ error: { message, type, code: type } }),
  errorBody: (message, type) => ({ error: { message, type, param: null, code: type } }),
}
