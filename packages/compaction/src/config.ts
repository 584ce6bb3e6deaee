// Every tunable of compaction (35-compaction.md CP-7), validated at load. `contextWindow` and
// `summarizationModel` default to the routed model's figures, so they are optional here.
import type { ConfigIssue, ConfigOf } from '@tack/kernel'
import { Schema } from '@tack/kernel'

export const CompactionConfig = Schema.object(
  {
    auto: Schema.boolean({
      default: true,
      description:
        'Compact automatically before a step whose request would pass the threshold; `/compact` and `ctx.compact()` work either way.',
    }),
    contextWindow: Schema.integer({
      min: 4096,
      description:
        "The model's context window in tokens; absent: the routed model's known window, else 128000.",
    }).optional(),
    thresholdRatio: Schema.number({
      min: 0,
      exclusiveMin: true,
      max: 1,
      default: 0.8,
      description: 'Compact when the estimated request reaches this share of `contextWindow`.',
    }),
    retainTokens: Schema.integer({
      min: 1000,
      default: 20000,
      description:
        'Tokens of the newest history kept word for word (never splitting a tool call from its result); below `contextWindow`.',
    }),
    charsPerToken: Schema.number({
      min: 0.5,
      max: 16,
      default: 4,
      description:
        "Characters per token for the estimate (CJK-heavy text: about 1–2); the provider's reported input tokens replace it when present.",
    }),
    summarizationModel: Schema.string({
      nonEmpty: true,
      description: "The model (`provider/model`) that writes the summary; absent: the session's model.",
    }).optional(),
    maxTokens: Schema.integer({
      min: 256,
      max: 65536,
      default: 4096,
      description: 'Output token limit of the summary call.',
    }),
    compactionRetries: Schema.integer({
      min: 0,
      max: 10,
      default: 2,
      description: 'Further attempts at the summary call after a failure.',
    }),
  },
  { refine: (config) => retainBelowWindow(config) },
)
export type CompactionConfig = ConfigOf<typeof CompactionConfig>

/** The rule that spans two fields: `retainTokens` must stay below a configured `contextWindow`. */
function retainBelowWindow(config: { retainTokens: number; contextWindow?: number }): ConfigIssue[] {
  if (config.contextWindow === undefined || config.retainTokens < config.contextWindow) return []
  return [
    {
      path: 'retainTokens',
      message: `must be below contextWindow (${config.contextWindow}) (got ${config.retainTokens})`,
    },
  ]
}
