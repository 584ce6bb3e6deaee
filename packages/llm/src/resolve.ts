// Model resolution: `provider/model` → which endpoint serves it, where, and with which key variable.
// Keys are looked up in an env object the caller passes (never `process.env` in here), and only
// their presence is reported: `resolveModel` is what `tack doctor` prints.
import { join } from 'node:path'
import { resolveTackHome } from '@tack/kernel/home'
import { LlmError } from '@tack/agent'
import { contextWindowOf } from './catalog.ts'
import type { LlmConfig } from './config.ts'
import type { EndpointConfig, ProviderKind } from './endpoints.ts'
import { type BaseUrlSource, type LlmOrigins, projectBaseUrlProblem } from './origins.ts'

export type Env = Readonly<Record<string, string | undefined>>

/** The providers every configuration has; config `endpoints` of the same name replace them. */
export const BUILTIN_ENDPOINTS: Readonly<Record<string, EndpointConfig & { readonly baseUrl: string }>> = {
  deepseek: { kind: 'deepseek', baseUrl: 'https://api.deepseek.com', apiKeyEnv: 'DEEPSEEK_API_KEY' },
  openai: { kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
  anthropic: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  // Ollama's OpenAI-compatible API; llama.cpp and vLLM serve the same protocol elsewhere.
  local: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' },
}

/** The key variable a kind uses when an endpoint names none (openai-compatible needs no key). */
export const DEFAULT_KEY_ENV: Readonly<Record<ProviderKind, string | undefined>> = {
  deepseek: 'DEEPSEEK_API_KEY',
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': undefined,
}

const DEFAULT_BASE_URL: Readonly<Record<ProviderKind, string | undefined>> = {
  deepseek: BUILTIN_ENDPOINTS.deepseek.baseUrl,
  openai: BUILTIN_ENDPOINTS.openai.baseUrl,
  anthropic: BUILTIN_ENDPOINTS.anthropic.baseUrl,
  'openai-compatible': undefined,
}

export type ResolvedModel =
  | {
      readonly kind: ProviderKind
      /** `provider/model` as given. */
      readonly model: string
      readonly provider: string
      /** The model name sent to the provider. */
      readonly modelId: string
      readonly baseUrl?: string
      /** Who chose `baseUrl`: the user's config, a flag, a project config, or the provider default. */
      readonly baseUrlSource?: BaseUrlSource
      readonly apiKeyEnv?: string
      readonly keyRequired: boolean
      readonly keyPresent: boolean
      /** Names of the configured extra headers (their values are never reported). */
      readonly headerNames: readonly string[]
      readonly contextWindow: number
      /** A one-line fix when the model cannot be used as configured. */
      readonly problem?: string
    }
  | {
      readonly kind: 'scripted'
      readonly model: string
      readonly provider: 'scripted'
      readonly modelId: string
      readonly baseUrl?: undefined
      readonly baseUrlSource?: undefined
      readonly apiKeyEnv?: undefined
      readonly keyRequired: false
      readonly keyPresent: false
      readonly headerNames: readonly string[]
      readonly contextWindow: number
      readonly problem?: string
    }

export type ResolveConfig = Pick<LlmConfig, 'endpoints' | 'baseUrl' | 'scripted'>

/** Providers known to `config`: built-ins, then named endpoints (which win on a name clash). */
export function knownProviders(config: ResolveConfig): Record<string, EndpointConfig> {
  return { ...BUILTIN_ENDPOINTS, ...config.endpoints }
}

/**
 * Every variable a configured endpoint reads its key from (built-ins included), whatever its name:
 * what the bash tool removes from commands' environments and the CLI redacts from its output.
 */
export function keyVariables(config: ResolveConfig): string[] {
  const names = new Set<string>()
  for (const endpoint of Object.values(knownProviders(config))) {
    const name = endpoint.apiKeyEnv ?? DEFAULT_KEY_ENV[endpoint.kind]
    if (name) names.add(name)
  }
  return [...names].sort()
}

export function splitModel(model: string): { provider: string; modelId: string } | undefined {
  const slash = model.indexOf('/')
  if (slash <= 0 || slash === model.length - 1) return undefined
  return { provider: model.slice(0, slash), modelId: model.slice(slash + 1) }
}

/**
 * What serves `model`; throws `LlmError` `UNKNOWN_MODEL` for a malformed name or unknown provider.
 * `origins` says which config values a project chose (default: none — the embedder's own config).
 */
export function resolveModel(
  config: ResolveConfig,
  model: string,
  env: Env,
  origins: LlmOrigins = {},
): ResolvedModel {
  const parts = splitModel(model)
  const providers = knownProviders(config)
  const names = [...Object.keys(providers), ...(config.scripted ? ['scripted'] : [])]
  if (!parts)
    throw new LlmError(
      `model "${model}" is not of the form provider/model (providers: ${names.join(', ')})`,
      {
        code: 'UNKNOWN_MODEL',
        transient: false,
      },
    )
  const { provider, modelId } = parts
  if (provider === 'scripted' && config.scripted)
    return {
      kind: 'scripted',
      model,
      provider,
      modelId,
      keyRequired: false,
      keyPresent: false,
      headerNames: [],
      contextWindow: contextWindowOf(model),
    }
  const endpoint = providers[provider]
  if (!endpoint)
    throw new LlmError(
      `unknown model provider "${provider}" in "${model}" (providers: ${names.join(', ')})`,
      {
        code: 'UNKNOWN_MODEL',
        transient: false,
      },
    )
  const fromConfig = config.endpoints[provider]
  const endpointOrigins = Object.hasOwn(origins.endpoints ?? {}, provider)
    ? origins.endpoints?.[provider]
    : undefined
  const [baseUrl, baseUrlSource]: [string | undefined, BaseUrlSource] = fromConfig?.baseUrl
    ? [fromConfig.baseUrl, endpointOrigins?.baseUrl ?? 'user']
    : config.baseUrl
      ? [config.baseUrl, origins.baseUrl ?? 'user']
      : [endpoint.baseUrl ?? DEFAULT_BASE_URL[endpoint.kind], 'builtin']
  const apiKeyEnv = endpoint.apiKeyEnv ?? DEFAULT_KEY_ENV[endpoint.kind]
  const keyRequired = apiKeyEnv !== undefined
  const keyPresent = apiKeyEnv !== undefined && typeof env[apiKeyEnv] === 'string' && env[apiKeyEnv] !== ''
  const hasUserHeaders =
    Object.keys(endpoint.headers ?? {}).length > 0 && (endpointOrigins?.headers ?? 'user') !== 'project'
  const problem = !baseUrl
    ? `endpoint "${provider}" has no baseUrl: set endpoints.${provider}.baseUrl or pass --base-url`
    : baseUrlSource === 'project' && (keyRequired || hasUserHeaders)
      ? projectBaseUrlProblem(provider, keyRequired ? `${apiKeyEnv}` : 'your configured headers', env)
      : keyRequired && !keyPresent
        ? `${apiKeyEnv} is not set: export it or add it to ${join(resolveTackHome(env), '.env')}`
        : undefined
  return {
    kind: endpoint.kind,
    model,
    provider,
    modelId,
    ...(baseUrl ? { baseUrl, baseUrlSource } : {}),
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    keyRequired,
    keyPresent,
    headerNames: Object.keys(endpoint.headers ?? {}),
    contextWindow: contextWindowOf(model),
    ...(problem ? { problem } : {}),
  }
}

/**
 * The typed code of `resolved.problem`, the one the provider raises when a request meets it
 * (providers/adapter.ts) and the boot's model check carries as its cause: callers that must tell a
 * missing key from a wrong URL (the fleet's worker, docs/decisions/0385-fleet-retries.md) key off it.
 */
export function modelProblemCode(
  resolved: ResolvedModel,
): 'NO_BASE_URL' | 'UNTRUSTED_BASE_URL' | 'MISSING_API_KEY' | undefined {
  if (resolved.kind === 'scripted' || (!resolved.problem && resolved.baseUrl)) return undefined
  return !resolved.baseUrl
    ? 'NO_BASE_URL'
    : resolved.baseUrlSource === 'project'
      ? 'UNTRUSTED_BASE_URL'
      : 'MISSING_API_KEY'
}

/** The model to use when none is configured: DeepSeek when its key is set (80-cli.md §4.1); the CLI's only rule. */
export function defaultModel(env: Env): string | undefined {
  return env.DEEPSEEK_API_KEY ? 'deepseek/deepseek-chat' : undefined
}

/**
 * The message for "no usable model", naming the three ways to configure one (80-cli.md §4.1) and the
 * user's real config file (`$TACK_HOME/config.yml` as resolved from `env`); the CLI prints it.
 */
export function noModelHelp(env: Env): string {
  return noModelHelpFor(join(resolveTackHome(env), 'config.yml'))
}

/** `noModelHelp` with the file written as `$TACK_HOME/config.yml` (for docs and tests). */
export const NO_MODEL_HELP = noModelHelpFor('$TACK_HOME/config.yml')

function noModelHelpFor(configFile: string): string {
  return (
    'no model configured: set DEEPSEEK_API_KEY (DeepSeek is the default), or pass --model provider/model ' +
    '(e.g. openai/gpt-4.1, anthropic/claude-sonnet-4-5, or local/<model> with --base-url for an OpenAI-compatible server), ' +
    `or set \`model:\` (and, for your own server, plugins.llm.endpoints) in ${configFile}`
  )
}
