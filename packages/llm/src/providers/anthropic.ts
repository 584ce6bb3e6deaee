// Wire protocol: Anthropic Messages through `@ai-sdk/anthropic`.
//
// Thinking: each thinking block keeps its signature (Anthropic verifies it when the block is sent
// back, which it requires while a tool-use exchange is in progress). A redacted thinking block has
// no text, only opaque data; it is stored as a reasoning block whose signature is
// `REDACTED_THINKING_PREFIX + data`, so it survives the log and goes back as `redacted_thinking`.
//
// Prompt caching (what is cached is ours to decide): at most four `cache_control` breakpoints —
//   1. the last tool definition (tools rarely change, so they are cached even when the system
//      prompt changes),
//   2. the system prompt (tools + system),
//   3. the message that ended the previous request (the one before the latest assistant message), so
//      the prefix the previous request wrote is read back even when many blocks were added since
//      (Anthropic looks back only ~20 blocks from a breakpoint),
//   4. the last message, which writes the whole conversation for the next step.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider'
import type { LlmRequest } from '@tack/agent'
import type { WireProtocol } from './protocol.ts'
import { lazy } from './protocol.ts'
import type { MediaSupport } from './media.ts'
import { type PromptStyle, toCallOptions } from './prompt.ts'
import { watchedFetch } from './watchdog.ts'

const load = lazy(() => import('@ai-sdk/anthropic'))

export const REDACTED_THINKING_PREFIX = 'redacted_thinking:'

const CACHE: SharedV4ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } }

export const anthropicProtocol: WireProtocol = {
  kind: 'anthropic',
  async model(endpoint, modelId) {
    const { createAnthropic } = await load()
    // baseURL and apiKey are always given, so the package never reads ANTHROPIC_BASE_URL or
    // ANTHROPIC_API_KEY from process.env behind our back.
    return createAnthropic({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey ?? '',
      headers: { ...endpoint.headers },
      // Times the provider's bytes (stalls: watchdog.ts).
      fetch: watchedFetch,
    }).languageModel(modelId)
  },
  callOptions: (request, media) => withCacheBreakpoints(anthropicCallOptions(request, media)),
  hooks: {
    reasoningSignature(metadata) {
      const meta = metadata?.anthropic as { signature?: unknown; redactedData?: unknown } | undefined
      if (typeof meta?.signature === 'string' && meta.signature) return meta.signature
      if (typeof meta?.redactedData === 'string') return REDACTED_THINKING_PREFIX + meta.redactedData
      return undefined
    },
  },
}

// One object for the process: toCallOptions caches converted messages per style object.
const STYLE: PromptStyle = {
  toolInput: 'raw',
  errorResults: 'error-text',
  reasoning: 'signed',
  // Anthropic takes images inside tool_result content (media.ts).
  toolImages: 'in-result',
  signedReasoning: (signature) =>
    signature.startsWith(REDACTED_THINKING_PREFIX)
      ? { anthropic: { redactedData: signature.slice(REDACTED_THINKING_PREFIX.length) } }
      : { anthropic: { signature } },
}

function anthropicCallOptions(request: LlmRequest, media?: MediaSupport): LanguageModelV4CallOptions {
  return toCallOptions(request, STYLE, media)
}

/** Adds the breakpoints described at the top of this file. */
export function withCacheBreakpoints(options: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
  const prompt = options.prompt.map((m) => ({ ...m }))
  const tools = options.tools?.map((t) => ({ ...t }))
  const lastTool = tools?.at(-1)
  if (lastTool?.type === 'function') lastTool.providerOptions = CACHE
  const system = prompt.find((m) => m.role === 'system')
  if (system) system.providerOptions = CACHE
  const conversation = prompt.filter((m) => m.role !== 'system')
  const last = conversation.at(-1)
  if (last) last.providerOptions = CACHE
  const lastAssistant = conversation.findLastIndex((m) => m.role === 'assistant')
  const previousEnd = lastAssistant > 0 ? conversation[lastAssistant - 1] : undefined
  if (previousEnd) previousEnd.providerOptions = CACHE
  return { ...options, prompt: prompt as LanguageModelV4Message[], ...(tools ? { tools } : {}) }
}
