// Wire protocol: OpenAI Chat Completions as spoken by compatible servers (Ollama, llama.cpp, vLLM,
// gateways), through `@ai-sdk/openai-compatible`. Reasoning arrives as `reasoning_content` (or
// `reasoning`) and is sent back the same way; tool-call arguments go back verbatim.
import type { LanguageModelV4Usage } from '@ai-sdk/provider'
import type { WireProtocol } from './protocol.ts'
import { lazy } from './protocol.ts'
import { type PromptStyle, toCallOptions } from './prompt.ts'
import { toUsage } from './stream.ts'
import { watchedFetch } from './watchdog.ts'

const load = lazy(() => import('@ai-sdk/openai-compatible'))

// One object for the process: toCallOptions caches converted messages per style object.
const STYLE: PromptStyle = {
  toolImages: 'user-message',
  toolInput: 'raw',
  errorResults: 'text',
  reasoning: 'text',
}

export const openaiCompatibleProtocol: WireProtocol = {
  kind: 'openai-compatible',
  async model(endpoint, modelId) {
    const { createOpenAICompatible } = await load()
    return createOpenAICompatible({
      name: endpoint.name,
      baseURL: endpoint.baseUrl,
      ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
      headers: { ...endpoint.headers },
      // Times the provider's bytes (stalls: watchdog.ts).
      fetch: watchedFetch,
      // Ask for the final usage chunk (stream_options.include_usage).
      includeUsage: true,
    }).chatModel(modelId)
  },
  callOptions: (request, media) => toCallOptions(request, STYLE, media),
  hooks: {
    // The package maps cached reads only; servers that report cache writes use OpenAI's field.
    usage: (usage) => toUsage(usage, cacheWriteTokens(usage)),
  },
}

/** `usage.prompt_tokens_details.cache_write_tokens` of an OpenAI-shaped raw usage record. */
export function cacheWriteTokens(usage: LanguageModelV4Usage): number | undefined {
  const details = (usage.raw as { prompt_tokens_details?: { cache_write_tokens?: unknown } } | undefined)
    ?.prompt_tokens_details
  return typeof details?.cache_write_tokens === 'number' ? details.cache_write_tokens : undefined
}
