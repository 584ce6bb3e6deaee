// The adapter behind every configured provider: resolves `provider/model` per request, reads the key
// from the env object it was given, and hands the request to the wire protocol of the endpoint's
// kind. Provider packages load on the first request that needs them (lazy `import()`).
import { type LlmAdapter, LlmError } from '@tack/agent'
import type { LlmConfig } from '../config.ts'
import type { ProviderKind } from '../endpoints.ts'
import { effortProviderOptions, mergeProviderOptions } from '../effort.ts'
import { toLlmError } from '../errors.ts'
import { acceptsImages } from '../images.ts'
import { type LlmOrigins, projectBaseUrlProblem } from '../origins.ts'
import { type Env, knownProviders, modelProblemCode, resolveModel } from '../resolve.ts'
import { anthropicProtocol } from './anthropic.ts'
import { deepseekProtocol } from './deepseek.ts'
import { openaiProtocol } from './openai.ts'
import { openaiCompatibleProtocol } from './openai-compatible.ts'
import type { ConnectedEndpoint, WireProtocol } from './protocol.ts'
import { streamModel } from './stream.ts'

export const PROTOCOLS: Readonly<Record<ProviderKind, WireProtocol>> = {
  'openai-compatible': openaiCompatibleProtocol,
  openai: openaiProtocol,
  anthropic: anthropicProtocol,
  deepseek: deepseekProtocol,
}

export interface ProviderRuntime {
  readonly config: Pick<
    LlmConfig,
    'endpoints' | 'baseUrl' | 'scripted' | 'idleTimeoutMs' | 'firstByteTimeoutMs'
  >
  readonly env: Env
  /** Which config values a project chose (`origins.ts`); default none. */
  readonly origins?: LlmOrigins
}

/** How many distinct endpoint/model pairs one adapter keeps built (a session uses one or two). */
const MODEL_CACHE_SIZE = 8

export function createProviderAdapter(runtime: ProviderRuntime): LlmAdapter {
  // Building an AI SDK model is not free: the OpenAI-compatible one compiles its zod chunk schemas in
  // its constructor, ~150 KB of garbage and a few ms per request when rebuilt each step
  // (docs/decisions/0066-flat-memory.md). A model holds only its settings, so equal settings share one.
  const models = new Map<string, Promise<Awaited<ReturnType<WireProtocol['model']>>>>()
  const modelFor = (protocol: WireProtocol, endpoint: ConnectedEndpoint, modelId: string) => {
    const key = JSON.stringify([
      protocol.kind,
      endpoint.name,
      endpoint.baseUrl,
      endpoint.apiKey ?? null,
      endpoint.headers,
      modelId,
    ])
    let model = models.get(key)
    if (!model) {
      model = protocol.model(endpoint, modelId)
      // A failed build is not remembered: the next request tries again.
      model.catch(() => models.delete(key))
      if (models.size >= MODEL_CACHE_SIZE) models.delete(models.keys().next().value as string)
      models.set(key, model)
    }
    return model
  }
  return {
    async stream(request, signal) {
      const { config, env } = runtime
      const resolved = resolveModel(config, request.config.model, env, runtime.origins)
      if (resolved.kind === 'scripted')
        throw new LlmError(`${resolved.model} is served by the scripted provider`, {
          code: 'UNKNOWN_MODEL',
          transient: false,
        })
      if (resolved.problem || !resolved.baseUrl)
        throw new LlmError(`${resolved.model}: ${resolved.problem}`, {
          code: modelProblemCode(resolved) ?? 'NO_BASE_URL',
          transient: false,
        })
      const endpointConfig = knownProviders(config)[resolved.provider]
      const headers = endpointConfig?.headers ?? {}
      const apiKey = resolved.apiKeyEnv ? env[resolved.apiKeyEnv] : undefined
      // Where the key meets the URL, the invariant once more (resolveModel already reports it as a
      // problem): nothing the user holds goes to a base URL a project chose.
      const projectHeaders = runtime.origins?.endpoints?.[resolved.provider]?.headers === 'project'
      if (
        resolved.baseUrlSource === 'project' &&
        (apiKey || (Object.keys(headers).length > 0 && !projectHeaders))
      )
        throw new LlmError(
          `${resolved.model}: ${projectBaseUrlProblem(resolved.provider, 'credentials', env)}`,
          {
            code: 'UNTRUSTED_BASE_URL',
            transient: false,
          },
        )
      // Everything that could be a credential is scrubbed from messages built from provider text.
      // A header like `Authorization: Bearer <token>` is echoed as the bare token, so each word of a
      // header value counts too.
      const headerValues = Object.values(headers).flatMap((v) => [v, ...v.split(/\s+/)])
      const secrets = [apiKey, ...headerValues].filter((s): s is string => !!s)
      const errors = { provider: resolved.provider, secrets }
      const protocol = PROTOCOLS[resolved.kind]
      let options: ReturnType<WireProtocol['callOptions']>
      let model: Awaited<ReturnType<WireProtocol['model']>>
      try {
        const images = endpointConfig ? acceptsImages(endpointConfig, resolved.modelId) : false
        options = protocol.callOptions(request, { model: resolved.model, images })
        // The effort the header recorded, as this provider takes it (effort.ts).
        const effort = effortProviderOptions(
          resolved.kind,
          resolved.provider,
          resolved.modelId,
          request.config.reasoningEffort,
        )
        if (effort)
          options = { ...options, providerOptions: mergeProviderOptions(options.providerOptions, effort) }
        model = await modelFor(
          protocol,
          {
            name: resolved.provider,
            baseUrl: resolved.baseUrl,
            ...(apiKey ? { apiKey } : {}),
            headers,
          },
          resolved.modelId,
        )
      } catch (error) {
        throw toLlmError(error, errors)
      }
      return streamModel(
        {
          model,
          options,
          hooks: protocol.hooks,
          errors,
          stallBounds: { firstByteTimeoutMs: config.firstByteTimeoutMs, idleTimeoutMs: config.idleTimeoutMs },
        },
        signal,
      )
    },
  }
}
