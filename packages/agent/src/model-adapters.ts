// The model seam's innermost handler: adapters registered per model pattern (service
// `ctx.modelAdapters`). A pattern is an exact `provider/model` or `provider/*`; the most recently
// registered match wins so a test or profile can override a provider. `@tack/llm`'s `ctx.llmProviders`
// registers the configured providers here.
import { waterfall } from '@tack/kernel'
import type { Context } from 'cordis'
import { LlmError } from './errors.ts'
import type { LlmAdapter, LlmRequest, LlmResponse } from './types.ts'

interface Registration {
  readonly patterns: readonly string[]
  readonly adapter: LlmAdapter
}

export class ModelAdapters {
  readonly #registrations: Registration[] = []

  /** Serves `models` (exact names or `provider/*`) with `adapter`; returns the disposer. */
  register(models: readonly string[], adapter: LlmAdapter): () => void {
    const reg: Registration = { patterns: [...models], adapter }
    this.#registrations.push(reg)
    return () => {
      const i = this.#registrations.indexOf(reg)
      if (i >= 0) this.#registrations.splice(i, 1)
    }
  }

  adapterFor(model: string): LlmAdapter | undefined {
    for (let i = this.#registrations.length - 1; i >= 0; i--) {
      const reg = this.#registrations[i]
      if (reg.patterns.some((p) => matchesModel(p, model))) return reg.adapter
    }
    return undefined
  }

  knownPatterns(): string[] {
    return this.#registrations.flatMap((r) => r.patterns)
  }
}

export function matchesModel(pattern: string, model: string): boolean {
  if (pattern === model) return true
  if (pattern.endsWith('/*'))
    return model.startsWith(pattern.slice(0, -1)) && model.length > pattern.length - 1
  return false
}

/** Calls the model: runs `llm/stream` with the adapter lookup as its default. */
export function callModel(ctx: Context, request: LlmRequest, signal: AbortSignal): Promise<LlmResponse> {
  return waterfall(ctx, 'llm/stream', [request, signal], async (req, sig) => {
    const adapter = ctx.modelAdapters.adapterFor(req.config.model)
    if (!adapter) {
      const known = ctx.modelAdapters.knownPatterns()
      throw new LlmError(
        `no model adapter serves "${req.config.model}"${known.length ? ` (known: ${known.join(', ')})` : ''}`,
        { code: 'UNKNOWN_MODEL' },
      )
    }
    return adapter.stream(req, sig)
  })
}

declare module 'cordis' {
  interface Context {
    modelAdapters: ModelAdapters
  }
}
