// The models a person may pick (85-skills-and-commands.md I3, docs/decisions/0290-model-choice-and-effort.md):
// the model in force, the configured one, the catalogue's models of each usable provider of their kind,
// the model ids an endpoint's config names (`images: [...]`), and what a provider's own model list
// (`GET {baseUrl}/models`, provider-models.ts) adds. A provider is usable when `resolveModel` finds no
// problem with it: its key is present and no project chose its URL — nothing else is offered.
import { MODEL_CATALOG } from './catalog.ts'
import type { LlmConfig } from './config.ts'
import type { EndpointConfig, ProviderKind } from './endpoints.ts'
import type { LlmOrigins } from './origins.ts'
import { type Env, knownProviders, resolveModel } from './resolve.ts'

/** Where a choice came from; the first source that offers a model names it. */
export type ModelSource = 'current' | 'config' | 'catalog' | 'endpoint' | 'provider'

export interface ModelChoice {
  /** `provider/model`. */
  readonly model: string
  readonly source: ModelSource
}

/** A provider whose model list may be asked for (`GET {baseUrl}/models`). */
export interface ListableProvider {
  readonly name: string
  readonly kind: ProviderKind
}

type ListConfig = Pick<LlmConfig, 'endpoints' | 'baseUrl' | 'scripted'>

/** The provider kind each catalogue model belongs to, by its id's family. */
export function catalogKind(modelId: string): ProviderKind | undefined {
  if (modelId.startsWith('deepseek-')) return 'deepseek'
  if (modelId.startsWith('gpt-') || /^o\d/.test(modelId)) return 'openai'
  if (modelId.startsWith('claude-')) return 'anthropic'
  return undefined
}

/** Whether `provider` can serve requests as configured (no missing key, no project-chosen URL). */
export function providerUsable(
  config: ListConfig,
  provider: string,
  env: Env,
  origins: LlmOrigins = {},
): boolean {
  try {
    return resolveModel(config, `${provider}/probe`, env, origins).problem === undefined
  } catch {
    return false
  }
}

/**
 * Whether to ask `name`'s own model list: every usable provider of a kind with a key, and an
 * openai-compatible one only when the person configured it (an endpoint, `baseUrl`) or uses it now —
 * the built-in `local` otherwise points at an Ollama that is usually not running.
 */
function worthListing(
  name: string,
  endpoint: EndpointConfig,
  config: ListConfig,
  inUse: ReadonlySet<string>,
): boolean {
  if (endpoint.kind !== 'openai-compatible') return true
  return Object.hasOwn(config.endpoints, name) || config.baseUrl !== undefined || inUse.has(name)
}

export interface StaticChoices {
  readonly choices: readonly ModelChoice[]
  /** Usable providers whose own list may add models. */
  readonly listable: readonly ListableProvider[]
}

/** The choices known without asking any server, and the providers worth asking. */
export function staticModelChoices(
  config: ListConfig,
  env: Env,
  opts: { readonly current?: string; readonly configured?: string; readonly origins?: LlmOrigins } = {},
): StaticChoices {
  const out = new Map<string, ModelChoice>()
  const add = (model: string, source: ModelSource) => {
    if (!out.has(model)) out.set(model, { model, source })
  }
  // The current and the configured model stay offered whatever their provider's state: they are the
  // person's own choices, and picking the current one again is how to keep it.
  if (opts.current) add(opts.current, 'current')
  if (opts.configured) add(opts.configured, 'config')
  const providers = knownProviders(config)
  const inUse = new Set(
    [opts.current, opts.configured].flatMap((m) => (m?.includes('/') ? [m.slice(0, m.indexOf('/'))] : [])),
  )
  const listable: ListableProvider[] = []
  for (const [name, endpoint] of Object.entries(providers)) {
    if (!providerUsable(config, name, env, opts.origins)) continue
    for (const id of Object.keys(MODEL_CATALOG))
      if (catalogKind(id) === endpoint.kind) add(`${name}/${id}`, 'catalog')
    if (Array.isArray(endpoint.images)) for (const id of endpoint.images) add(`${name}/${id}`, 'endpoint')
    if (worthListing(name, endpoint, config, inUse)) listable.push({ name, kind: endpoint.kind })
  }
  return { choices: [...out.values()], listable }
}

/** `choices` with `provider`'s listed ids added after them (a model already offered keeps its place). */
export function mergeListedModels(
  choices: readonly ModelChoice[],
  provider: string,
  ids: readonly string[],
): ModelChoice[] {
  const seen = new Set(choices.map((c) => c.model))
  const out = [...choices]
  for (const id of ids) {
    const model = `${provider}/${id}`
    if (seen.has(model)) continue
    seen.add(model)
    out.push({ model, source: 'provider' })
  }
  return out
}
