// Wire protocol: DeepSeek's Chat Completions dialect through `@ai-sdk/deepseek`. Reasoning arrives
// as `reasoning_content`; it is sent back on later requests and the package keeps exactly what
// DeepSeek needs (reasoning after the last user message, as its thinking-with-tools mode requires).
// Cache reads come from `prompt_cache_hit_tokens`; DeepSeek's disk cache has no write count.
import type { WireProtocol } from './protocol.ts'
import { lazy } from './protocol.ts'
import { type PromptStyle, toCallOptions } from './prompt.ts'
import { watchedFetch } from './watchdog.ts'

const load = lazy(() => import('@ai-sdk/deepseek'))

// One object for the process: toCallOptions caches converted messages per style object.
const STYLE: PromptStyle = {
  toolImages: 'user-message',
  toolInput: 'parsed',
  errorResults: 'text',
  reasoning: 'text',
}

export const deepseekProtocol: WireProtocol = {
  kind: 'deepseek',
  async model(endpoint, modelId) {
    const { createDeepSeek } = await load()
    return createDeepSeek({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey ?? '',
      headers: { ...endpoint.headers },
      // Times the provider's bytes (stalls: watchdog.ts).
      fetch: watchedFetch,
    }).chat(modelId)
  },
  // The package JSON-encodes the input itself, so it gets the parsed value.
  callOptions: (request, media) => toCallOptions(request, STYLE, media),
  hooks: {
    // The package reports a finish even when the stream ended without DeepSeek's finish_reason;
    // only a raw reason from the wire means the answer is complete.
    finishedCleanly: (reason) => reason.raw !== undefined,
  },
}
