// Wire protocol: OpenAI's Chat Completions API through `@ai-sdk/openai` (its `chat` model; the
// package handles the reasoning-model rules: `developer` role, `max_completion_tokens`, no
// temperature). Chat Completions returns no reasoning text, so reasoning blocks are not sent back.
import type { WireProtocol } from './protocol.ts'
import { lazy } from './protocol.ts'
import { type PromptStyle, toCallOptions } from './prompt.ts'
import { watchedFetch } from './watchdog.ts'

const load = lazy(() => import('@ai-sdk/openai'))

// One object for the process: toCallOptions caches converted messages per style object.
const STYLE: PromptStyle = {
  toolImages: 'user-message',
  toolInput: 'raw',
  errorResults: 'text',
  reasoning: 'drop',
}

export const openaiProtocol: WireProtocol = {
  kind: 'openai',
  async model(endpoint, modelId) {
    const { createOpenAI } = await load()
    // baseURL and apiKey are always given, so the package never reads OPENAI_BASE_URL or
    // OPENAI_API_KEY from process.env behind our back.
    return createOpenAI({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey ?? '',
      headers: { ...endpoint.headers },
      // Times the provider's bytes (stalls: watchdog.ts).
      fetch: watchedFetch,
    }).chat(modelId)
  },
  callOptions: (request, media) => toCallOptions(request, STYLE, media),
  hooks: {},
}
