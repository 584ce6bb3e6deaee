// The model catalogue: context windows and list prices (USD per million tokens) of common models,
// for the context meter, compaction thresholds and `/cost`. Only published figures are listed; a
// model not here gets the default window and no price (cost is then not shown, 80-cli.md §4.3).
import type { Usage } from '@tack/session'

export interface ModelPrice {
  /** Uncached input. */
  readonly input: number
  readonly output: number
  /** Input read from the prompt cache. */
  readonly cacheRead?: number
  /** Input written to the prompt cache (Anthropic's 5-minute cache write). */
  readonly cacheWrite?: number
}

export interface CatalogEntry {
  readonly contextWindow: number
  readonly maxOutputTokens?: number
  readonly price?: ModelPrice
  /** Takes image input (images.ts); absent: unknown. */
  readonly images?: boolean
}

export const DEFAULT_CONTEXT_WINDOW = 128000

const claude200k = (price: ModelPrice, maxOutputTokens: number): CatalogEntry => ({
  contextWindow: 200000,
  maxOutputTokens,
  price,
  images: true,
})
const gpt41 = (price: ModelPrice): CatalogEntry => ({
  contextWindow: 1047576,
  maxOutputTokens: 32768,
  price,
  images: true,
})
const gpt5 = (price: ModelPrice): CatalogEntry => ({
  contextWindow: 400000,
  maxOutputTokens: 128000,
  price,
  images: true,
})

/** Keyed by the provider's model id (without the `provider/` prefix). */
export const MODEL_CATALOG: Readonly<Record<string, CatalogEntry>> = {
  // DeepSeek V3.2 behind both names (thinking off / on); prices since 2025-09-29.
  'deepseek-chat': {
    contextWindow: 128000,
    maxOutputTokens: 8192,
    price: { input: 0.28, output: 0.42, cacheRead: 0.028 },
    images: false,
  },
  'deepseek-reasoner': {
    contextWindow: 128000,
    maxOutputTokens: 65536,
    price: { input: 0.28, output: 0.42, cacheRead: 0.028 },
    images: false,
  },
  'gpt-4o': {
    contextWindow: 128000,
    maxOutputTokens: 16384,
    price: { input: 2.5, output: 10, cacheRead: 1.25 },
    images: true,
  },
  'gpt-4o-mini': {
    contextWindow: 128000,
    maxOutputTokens: 16384,
    price: { input: 0.15, output: 0.6, cacheRead: 0.075 },
    images: true,
  },
  'gpt-4.1': gpt41({ input: 2, output: 8, cacheRead: 0.5 }),
  'gpt-4.1-mini': gpt41({ input: 0.4, output: 1.6, cacheRead: 0.1 }),
  'gpt-4.1-nano': gpt41({ input: 0.1, output: 0.4, cacheRead: 0.025 }),
  'gpt-5': gpt5({ input: 1.25, output: 10, cacheRead: 0.125 }),
  'gpt-5-mini': gpt5({ input: 0.25, output: 2, cacheRead: 0.025 }),
  'gpt-5-nano': gpt5({ input: 0.05, output: 0.4, cacheRead: 0.005 }),
  'claude-sonnet-4-5': claude200k({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, 64000),
  'claude-sonnet-4': claude200k({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, 64000),
  'claude-3-7-sonnet': claude200k({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, 64000),
  'claude-opus-4-1': claude200k({ input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, 32000),
  'claude-opus-4': claude200k({ input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, 32000),
  'claude-haiku-4-5': claude200k({ input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, 64000),
  'claude-3-5-haiku': claude200k({ input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 }, 8192),
}

// A dated snapshot (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`) or `-latest` alias shares its
// family's figures; any other suffix (`claude-opus-4-6`) is a different model and is not guessed.
const SNAPSHOT_SUFFIX = /^-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/

/** The catalogue entry of `model` (`provider/model` or a bare id), if known. */
export function catalogEntry(model: string): CatalogEntry | undefined {
  const id = model.includes('/') ? model.slice(model.indexOf('/') + 1) : model
  const exact = MODEL_CATALOG[id]
  if (exact) return exact
  let best: string | undefined
  for (const known of Object.keys(MODEL_CATALOG)) {
    if (id.startsWith(known) && SNAPSHOT_SUFFIX.test(id.slice(known.length)))
      if (!best || known.length > best.length) best = known
  }
  return best ? MODEL_CATALOG[best] : undefined
}

export function contextWindowOf(model: string): number {
  return catalogEntry(model)?.contextWindow ?? DEFAULT_CONTEXT_WINDOW
}

export function priceOf(model: string): ModelPrice | undefined {
  return catalogEntry(model)?.price
}

/**
 * The cost in USD of one usage record, or undefined when the price is unknown. `inputTokens`
 * includes cached reads and cache writes, which are billed at their own rates when listed.
 */
export function costOf(model: string, usage: Usage): number | undefined {
  const price = priceOf(model)
  if (!price) return undefined
  const read = usage.cachedInputTokens ?? 0
  const write = usage.cacheWriteTokens ?? 0
  const uncached = Math.max(0, usage.inputTokens - read - write)
  const perToken = (perMillion: number) => perMillion / 1_000_000
  return (
    uncached * perToken(price.input) +
    read * perToken(price.cacheRead ?? price.input) +
    write * perToken(price.cacheWrite ?? price.input) +
    usage.outputTokens * perToken(price.output)
  )
}
