// The `llm` plugin: registers an adapter for every configured provider (built-ins, named endpoints,
// `scripted/*`) behind the retry policy, and provides `ctx.llmProviders`. Keys are read only from
// the env object given to `createLlmPlugin` (the CLI passes its environment, tests a fake one);
// `LlmPlugin` is the same plugin with an empty env, so it serves keyless providers only.
import { declareSecrets, definePlugin, emitSafely } from '@tack/kernel'
import type { LlmAdapter } from '@tack/agent'
import type { Context } from 'cordis'
import { LlmConfig } from './config.ts'
import { type EffortSupport, effortSupport } from './effort.ts'
import { type StaticChoices, staticModelChoices } from './model-list.ts'
import { fetchProviderModels } from './provider-models.ts'
import type { LlmOrigins } from './origins.ts'
import { createProviderAdapter } from './providers/adapter.ts'
import { type Env, keyVariables, knownProviders, type ResolvedModel, resolveModel } from './resolve.ts'
import { type RetryHooks, type RetryPolicy, withRetry } from './retry.ts'
import { createScriptedFileAdapter } from './scripted.ts'
import { modelTakesImages } from './images.ts'
import { promptImagesListener } from './prompt-images.ts'
import { lazy } from './providers/protocol.ts'

// The codec that scales a prompt's image down is loaded the first time one is past the pixel bound.
const loadScaler = lazy(() => import('./image-scale.ts'))

export interface LlmRuntimeOptions {
  /** Where API keys are read from (by variable name); never `process.env` implicitly. */
  readonly env?: Env
  /** Resolves relative `scripted/<file>` paths; default the process's working directory. */
  readonly cwd?: string
  /** Which config values a project chose, so no key goes to a URL it picked (`origins.ts`). */
  readonly origins?: LlmOrigins
  /** For tests: the jitter source of the retry policy. */
  readonly random?: RetryHooks['random']
}

export class LlmProviders {
  readonly #ctx: Context
  readonly policy: RetryPolicy
  readonly #config: LlmConfig
  readonly #env: Env
  readonly #random?: () => number
  readonly #origins: LlmOrigins
  readonly #listed = new Map<string, Promise<string[]>>()
  /** Aborted when the plugin goes: a model list still coming (a server that never answers) holds no exit. */
  readonly #stopped = new AbortController()
  constructor(ctx: Context, config: LlmConfig, env: Env, random?: () => number, origins: LlmOrigins = {}) {
    this.#ctx = ctx
    this.policy = config.retry
    this.#config = config
    this.#env = env
    this.#random = random
    this.#origins = origins
  }
  /** Registers `adapter` for `models` behind the configured retry policy; returns the disposer. */
  register(models: readonly string[], adapter: LlmAdapter): () => void {
    const ctx = this.#ctx
    return ctx.modelAdapters.register(
      models,
      withRetry(adapter, this.policy, {
        onRetry: (info) => emitSafely(ctx, 'llm/retry', info),
        ...(this.#random ? { random: this.#random } : {}),
      }),
    )
  }
  /** What serves `model` (for `tack doctor`): provider, base URL, key variable, key present — never the key. */
  resolve(model: string): ResolvedModel {
    return resolveModel(this.#config, model, this.#env, this.#origins)
  }
  /** The variables configured endpoints read keys from (names only, never values). */
  keyVariables(): string[] {
    return keyVariables(this.#config)
  }
  /** The models to offer in a picker without asking a server, and the providers whose list may add more. */
  modelChoices(opts: { current?: string; configured?: string } = {}): StaticChoices {
    return staticModelChoices(this.#config, this.#env, { ...opts, origins: this.#origins })
  }
  /**
   * `provider`'s own model list (`GET {baseUrl}/models`), asked once per process and kept (a failure is
   * not kept: the next picker asks again). Rejects with a message safe to show.
   */
  listModels(provider: string): Promise<string[]> {
    let listed = this.#listed.get(provider)
    if (!listed) {
      listed = this.#fetchList(provider)
      this.#listed.set(provider, listed)
      listed.catch(() => this.#listed.delete(provider))
    }
    return listed
  }
  async #fetchList(provider: string): Promise<string[]> {
    const resolved = resolveModel(this.#config, `${provider}/probe`, this.#env, this.#origins)
    if (resolved.kind === 'scripted' || resolved.problem || !resolved.baseUrl)
      throw new Error(resolved.problem ?? `${provider} lists no models`)
    const endpoint = knownProviders(this.#config)[provider]
    const apiKey = resolved.apiKeyEnv ? this.#env[resolved.apiKeyEnv] : undefined
    return fetchProviderModels(
      {
        kind: resolved.kind,
        baseUrl: resolved.baseUrl,
        ...(apiKey ? { apiKey } : {}),
        headers: endpoint?.headers ?? {},
      },
      { signal: this.#stopped.signal },
    )
  }
  /** Ends every model list still asked for (the plugin is going). */
  stop(): void {
    this.#stopped.abort()
  }
  /** Whether `model` takes a reasoning effort (`/effort`, `--effort`), or why not. */
  effortSupport(model: string): EffortSupport {
    let resolved: ResolvedModel
    try {
      resolved = this.resolve(model)
    } catch (error) {
      return { ok: false, reason: (error as Error).message }
    }
    return effortSupport(resolved.kind, resolved.modelId)
  }
  /** The provider names this configuration serves as `<name>/*`. */
  providers(): string[] {
    return [...Object.keys(knownProviders(this.#config)), ...(this.#config.scripted ? ['scripted'] : [])]
  }
}

export function createLlmPlugin(runtime: LlmRuntimeOptions = {}) {
  const env: Env = Object.freeze({ ...(runtime.env ?? {}) })
  return definePlugin({
    name: 'llm',
    Config: LlmConfig,
    inject: ['modelAdapters'],
    apply(ctx, config) {
      const origins = runtime.origins ?? {}
      const providers = new LlmProviders(ctx, config, env, runtime.random, origins)
      ctx.provide('llmProviders', providers)
      // No command a tool runs sees a variable an endpoint reads a key from (ctx.secrets).
      declareSecrets(ctx, { variables: keyVariables(config) })
      // An effort the model takes none of is dropped before the header is recorded, so the header says
      // what the provider gets (`/effort` and `--effort` say so to the person when it is set).
      ctx.on('agent/request', async (_agent, _info, _config, next) => {
        const given = await next()
        if (!given.reasoningEffort || providers.effortSupport(given.model).ok) return given
        const { reasoningEffort: _dropped, ...rest } = given
        return rest
      })
      const adapter = createProviderAdapter({ config, env, origins })
      const names = Object.keys(knownProviders(config))
      const disposers = [
        providers.register(
          names.map((name) => `${name}/*`),
          adapter,
        ),
      ]
      if (config.scripted)
        disposers.push(
          providers.register(
            ['scripted/*'],
            createScriptedFileAdapter({ cwd: runtime.cwd ?? process.cwd() }),
          ),
        )
      // A prompt's images: refused for a model without image input, fitted to llm.images (prompt-images.ts).
      ctx.on(
        'agent/prompt-submit',
        promptImagesListener(
          (agent) => ({ model: agent.model, takesImages: modelTakesImages(config, agent.model) }),
          config.images,
          async (image, maxLongEdge) =>
            (await loadScaler()).scaleImage(image, maxLongEdge, config.images.maxScaleMegapixels * 1_000_000),
        ),
      )
      ctx.effect(() => () => {
        for (const dispose of disposers) dispose()
        providers.stop()
      })
    },
  })
}

export const LlmPlugin = createLlmPlugin()

declare module 'cordis' {
  interface Context {
    llmProviders: LlmProviders
  }
}
