// A command's `model:` front matter → the `provider/model` its turn runs on (85-skills-and-commands.md
// C2), checked the way `/model` checks a switch (a provider serves it, its key and endpoint are there),
// so a command whose model cannot answer is refused with one line before anything is sent.
// Claude Code's files name Anthropic model ids (`claude-3-5-haiku-20241022`); those are read as
// `anthropic/<id>`. Its aliases (`haiku`, `sonnet`, `opus`) name no provider tack could pick, so they are
// refused naming the file and the key; `inherit` means the session's model.
import type { Context } from 'cordis'
import type { KnowHowItem } from './types.ts'

/** What the agent plugin and the llm plugin offer, as far as this check reads them. */
interface Adapters {
  adapterFor(model: string): unknown
  knownPatterns(): string[]
}
interface Providers {
  resolve(model: string): { readonly problem?: string }
}

export type CommandModel =
  | { readonly ok: true; readonly model?: string }
  | { readonly ok: false; readonly problem: string }

/** `provider/model` for the item's `model`, undefined when it names none; a problem names file and key. */
export function commandModelOf(item: KnowHowItem): CommandModel {
  const raw = item.model?.trim()
  if (!raw || raw === 'inherit') return { ok: true }
  if (/^[^/\s]+\/\S+$/.test(raw)) return { ok: true, model: raw }
  if (/^claude-[\w.-]+$/.test(raw)) return { ok: true, model: `anthropic/${raw}` }
  return {
    ok: false,
    problem: `${item.file}: model: ${JSON.stringify(raw)} is not of the form provider/model (e.g. anthropic/claude-sonnet-4-5)`,
  }
}

/**
 * K5: a name alone sends nothing anywhere new, so an untrusted workspace's command may pick any model the
 * person configured — except `scripted/…`, which plays a file as the model (the rule a project config's
 * `model` follows, apps/tack/src/config/untrusted.ts).
 */
export function untrustedModelProblem(
  item: KnowHowItem,
  model: string,
  trustedSource: boolean,
): string | undefined {
  if (trustedSource || !model.startsWith('scripted/')) return undefined
  return `${item.file}: model: ${model} plays a file as the model; an untrusted workspace's command may not choose it`
}

/** The model's problem as one line, or undefined when tack can send to it. */
export function modelProblem(ctx: Context, model: string, file: string): string | undefined {
  const adapters = ctx.get('modelAdapters') as Adapters | undefined
  if (adapters && !adapters.adapterFor(model)) {
    const known = adapters.knownPatterns()
    return `${file}: model: no provider serves ${model}${known.length ? ` (known: ${known.join(', ')})` : ''}`
  }
  // Without the llm plugin (an embedder's own adapters) there is no configuration to check.
  const providers = ctx.get('llmProviders') as Providers | undefined
  if (!providers) return undefined
  try {
    const problem = providers.resolve(model).problem
    return problem ? `${file}: model: ${model}: ${problem}` : undefined
  } catch (error) {
    return `${file}: model: ${model}: ${(error as Error).message}`
  }
}
