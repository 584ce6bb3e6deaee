// What one wire protocol file provides: how to get the AI SDK model for an endpoint (importing the
// provider package lazily), how our request is shaped for it, and how its stream is read.
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider'
import type { LlmRequest } from '@tack/agent'
import type { ProviderKind } from '../endpoints.ts'
import type { MediaSupport } from './media.ts'
import type { StreamHooks } from './stream.ts'

/** An endpoint ready for a request: where, and the key read from the env for this request. */
export interface ConnectedEndpoint {
  /** The provider name as in `provider/model`. */
  readonly name: string
  readonly baseUrl: string
  readonly apiKey?: string
  readonly headers: Readonly<Record<string, string>>
}

export interface WireProtocol {
  readonly kind: ProviderKind
  /** Loads the provider package on first use and returns the model for one request. */
  model(endpoint: ConnectedEndpoint, modelId: string): Promise<LanguageModelV4>
  /** Our request as this protocol's call options (without the abort signal); `media`: what the model takes (default text only). */
  callOptions(request: LlmRequest, media?: MediaSupport): LanguageModelV4CallOptions
  readonly hooks: StreamHooks
}

/** Memoises a dynamic import, so each provider package loads once and only when first needed. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined
      throw error
    })
    return loaded
  }
}
