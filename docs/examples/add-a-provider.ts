// Worked example (docs/architecture.md, "Add a provider"): a model adapter serving `echo/*`. An
// adapter turns one request into streamed chunks and a final answer; the loop reaches it through the
// `llm/stream` seam, whose innermost handler looks the model up in `ctx.modelAdapters`. A real provider
// would call its API here (and register through `ctx.llmProviders.register` to get retries).
import { definePlugin, Schema } from '@tack/kernel'
import type { LlmAdapter, LlmFinal } from '@tack/agent'
import { blockText, type StreamChunk } from '@tack/session'

/** Answers with the last user message, upper-cased, streamed word by word. */
export const echoAdapter: LlmAdapter = {
  stream(request, signal) {
    const lastUser = request.messages.findLast((m) => m.role === 'user')
    const said = lastUser?.content.map(blockText).join('') ?? ''
    const answer = `${request.config.model} heard: ${said.toUpperCase()}`
    const words = answer.split(/(?<= )/)
    const final: LlmFinal = { content: [{ type: 'text', text: answer }], finishReason: 'stop' }
    return {
      chunks: (async function* (): AsyncGenerator<StreamChunk> {
        for (const text of words) {
          if (signal.aborted) return
          yield { type: 'text-delta', text }
        }
        yield { type: 'finish', reason: 'stop' }
      })(),
      final: Promise.resolve(final),
    }
  },
}

export const EchoProviderPlugin = definePlugin({
  name: 'echo-provider',
  Config: Schema.object({}),
  inject: ['modelAdapters'],
  apply(ctx) {
    // The disposer `register` returns runs when this plugin is disposed.
    ctx.effect(() => ctx.modelAdapters.register(['echo/*'], echoAdapter), 'echo/* adapter')
  },
})
