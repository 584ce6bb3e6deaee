// The loopback server's OpenAI Responses wire (`POST /v1/responses`, SSE events `response.created`,
// `response.output_item.added` / `.done`, `response.output_text.delta`,
// `response.function_call_arguments.delta`, `response.completed`): what the Codex CLI speaks (its
// `wire_api = "chat"` is gone), so a benchmark can run Codex against the same scripted server as tack
// (bench/lib/codex-run.ts). Reasoning is not rendered; a scripted answer's text becomes one `message`
// item and each call one `function_call` item.
import type { Usage } from '@tack/session'
import { halves } from './loopback-script.ts'
import { partialPieces, type RenderContext, type WireRenderer } from './loopback-wire.ts'

const event = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

function response(ctx: RenderContext, status: string, output: unknown[], usage?: Usage) {
  const read = usage?.cachedInputTokens ?? 0
  return {
    id: `resp_${ctx.seq}`,
    object: 'response',
    created_at: 1700000000,
    status,
    model: ctx.model,
    output,
    ...(usage
      ? {
          usage: {
            input_tokens: usage.inputTokens,
            input_tokens_details: { cached_tokens: read },
            output_tokens: usage.outputTokens,
            output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
        }
      : {}),
  }
}

function message(ctx: RenderContext, text: string, status: string) {
  return {
    id: `msg_${ctx.seq}`,
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [],
  }
}

export const responsesWire: WireRenderer = {
  answer(plan, ctx) {
    const out = [event('response.created', { response: response(ctx, 'in_progress', []) })]
    const done: unknown[] = []
    let index = 0
    if (plan.text) {
      out.push(
        event('response.output_item.added', { output_index: index, item: message(ctx, '', 'in_progress') }),
      )
      for (const delta of halves(plan.text))
        out.push(
          event('response.output_text.delta', {
            item_id: `msg_${ctx.seq}`,
            output_index: index,
            content_index: 0,
            delta,
          }),
        )
      const item = message(ctx, plan.text, 'completed')
      out.push(event('response.output_item.done', { output_index: index, item }))
      done.push(item)
      index++
    }
    for (const call of plan.calls) {
      const item = {
        id: `fc_${call.id}`,
        type: 'function_call',
        status: 'completed',
        call_id: call.id,
        name: call.name,
      }
      out.push(
        event('response.output_item.added', {
          output_index: index,
          item: { ...item, status: 'in_progress', arguments: '' },
        }),
      )
      for (const delta of halves(call.args))
        out.push(
          event('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta }),
        )
      out.push(
        event('response.output_item.done', { output_index: index, item: { ...item, arguments: call.args } }),
      )
      done.push({ ...item, arguments: call.args })
      index++
    }
    out.push(event('response.completed', { response: response(ctx, 'completed', done, plan.usage) }))
    return out
  },
  partial(text, chunks, ctx) {
    return [
      event('response.created', { response: response(ctx, 'in_progress', []) }),
      event('response.output_item.added', { output_index: 0, item: message(ctx, '', 'in_progress') }),
      ...partialPieces(text, chunks).map((delta) =>
        event('response.output_text.delta', {
          item_id: `msg_${ctx.seq}`,
          output_index: 0,
          content_index: 0,
          delta,
        }),
      ),
    ]
  },
  endWithoutFinish: () => [],
  keepAlive: () => ': keep-alive\n\n',
  streamError: (message, type) => event('error', { message, code: type }),
  errorBody: (message, type) => ({ error: { message, type, param: null, code: type } }),
}
