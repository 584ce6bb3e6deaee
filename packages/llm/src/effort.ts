// Reasoning effort per wire protocol (85-skills-and-commands.md I3, docs/decisions/0290-model-choice-and-effort.md).
// The request carries one provider-neutral level (`LlmCallConfig.reasoningEffort`, recorded in the request
// header); here it becomes the option each provider package takes:
//   - openai (reasoning models: o-series, gpt-5 except the -chat ones): `reasoningEffort` → `reasoning_effort`;
//   - openai-compatible: `reasoningEffort` under the endpoint's name → `reasoning_effort` (the server decides
//     what it does with it; a server that does not know the field usually ignores it);
//   - anthropic (models with extended thinking): `thinking: {type: 'enabled', budgetTokens}`, the budget from
//     ANTHROPIC_THINKING_BUDGET; the package adds it to max_tokens and turns it into adaptive thinking on
//     models that only think adaptively;
//   - deepseek: V4 models take `reasoningEffort`; deepseek-chat and deepseek-reasoner have no knob (the one
//     never thinks, the other always does), so an effort is refused for them with that reason.
import type { SharedV4ProviderOptions } from '@ai-sdk/provider'
import type { ReasoningEffort } from '@tack/session'
import type { ProviderKind } from './endpoints.ts'

/** Thinking budget in tokens per level: below every 200k Claude's output limit, above Anthropic's 1024 minimum. */
export const ANTHROPIC_THINKING_BUDGET: Readonly<Record<ReasoningEffort, number>> = {
  low: 2048,
  medium: 8192,
  high: 16384,
}

/** Whether a model takes an effort: `ok`, or why not in one line. */
export type EffortSupport = { readonly ok: true } | { readonly ok: false; readonly reason: string }

const OK: EffortSupport = Object.freeze({ ok: true })

/** OpenAI's reasoning models: o1/o3/o4…, gpt-5 and later, but not the non-reasoning `-chat` variants. */
function openaiReasons(modelId: string): boolean {
  if (/^o\d/.test(modelId)) return true
  const gpt = /^gpt-(\d+)/.exec(modelId)
  return gpt !== null && Number(gpt[1]) >= 5 && !/-chat(-|$)/.test(modelId)
}

/** Claude models with extended thinking: 3.7 Sonnet and the 4 family (Sonnet, Opus, Haiku 4.5) and later. */
function claudeThinks(modelId: string): boolean {
  if (modelId.startsWith('claude-3-7')) return true
  const m = /^claude-(?:(?:sonnet|opus|haiku)-)?(\d+)/.exec(modelId)
  return m !== null && Number(m[1]) >= 4
}

const deepseekV4 = (modelId: string) => /^deepseek-v4/.test(modelId)

/** Whether `modelId` served by an endpoint of `kind` takes a reasoning effort. */
export function effortSupport(kind: ProviderKind | 'scripted', modelId: string): EffortSupport {
  switch (kind) {
    case 'scripted':
    case 'openai-compatible':
      return OK
    case 'openai':
      return openaiReasons(modelId)
        ? OK
        : {
            ok: false,
            reason: `${modelId} is not an OpenAI reasoning model (o-series, gpt-5): it takes no effort`,
          }
    case 'anthropic':
      return claudeThinks(modelId)
        ? OK
        : { ok: false, reason: `${modelId} has no extended thinking: it takes no effort` }
    case 'deepseek':
      return deepseekV4(modelId)
        ? OK
        : {
            ok: false,
            reason: `DeepSeek's ${modelId} has no effort setting (deepseek-chat never reasons, deepseek-reasoner always does)`,
          }
  }
}

/**
 * The provider options that carry `effort` for `modelId` on an endpoint of `kind` named `provider`, or
 * undefined when the model takes none (the request goes without; `/effort` said so when it was set).
 */
export function effortProviderOptions(
  kind: ProviderKind,
  provider: string,
  modelId: string,
  effort: ReasoningEffort | undefined,
): SharedV4ProviderOptions | undefined {
  if (!effort || !effortSupport(kind, modelId).ok) return undefined
  switch (kind) {
    case 'openai':
      return { openai: { reasoningEffort: effort } }
    case 'openai-compatible':
      return { [provider]: { reasoningEffort: effort } }
    case 'anthropic':
      return { anthropic: { thinking: { type: 'enabled', budgetTokens: ANTHROPIC_THINKING_BUDGET[effort] } } }
    case 'deepseek':
      // DeepSeek's levels are low, high and max; the package maps medium to high.
      return { deepseek: { reasoningEffort: effort } }
  }
}

/** `options` with `extra` merged in per provider key (extra wins inside a key). */
export function mergeProviderOptions(
  options: SharedV4ProviderOptions | undefined,
  extra: SharedV4ProviderOptions | undefined,
): SharedV4ProviderOptions | undefined {
  if (!extra) return options
  const out: Record<string, Record<string, unknown>> = { ...(options ?? {}) }
  for (const [key, value] of Object.entries(extra)) out[key] = { ...(out[key] ?? {}), ...value }
  return out as SharedV4ProviderOptions
}
