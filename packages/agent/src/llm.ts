// The model seam's innermost handler: adapters registered per model pattern. A pattern is an exact
// `provider/model` or `provider/*`; the most recently registered match wins so a test or profile can
// override a provider.
import type { Context } from 'cordis'
import { waterfall } from '@tack/kernel'
import { LlmError } from './errors.ts'
import type { LlmAdapter, LlmRequest, LlmResponse } from './types.ts'

interface Registration {
  readonly patterns: readonly string[]
  readonly adapter: LlmAdapter
}

export class LlmService {
  readonly #registrations: Registration[] = []

  /** Serves `models` (exact names or `provider/*`) with `adapter`; returns the disposer. */
  registerAdapter(models: readonly string[], adapter: LlmAdapter): () => void {
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

/** Runs `llm/stream` with the adapter lookup as its default. */
export function streamModel(ctx: Context, request: LlmRequest, signal: AbortSignal): Promise<LlmResponse> {
  return waterfall<LlmResponse>(ctx, 'llm/stream', [request, signal], async (req, sig) => {
    const r = req as LlmRequest
    const adapter = ctx.llm.adapterFor(r.config.model)
    if (!adapter) {
      const known = ctx.llm.knownPatterns()
      throw new LlmError(
        `no model adapter serves "${r.config.model}"${known.length ? ` (known: ${known.join(', ')})` : ''}`,
        { code: 'UNKNOWN_MODEL' },
      )
    }
    return adapter.stream(r, sig as AbortSignal)
  })
}

declare module 'cordis' {
  interface Context {
    llm: LlmService
  }
}
