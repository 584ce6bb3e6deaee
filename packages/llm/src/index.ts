// @tack/llm: model providers through the AI SDK provider packages (imported lazily, on the first
// request for a model of that provider), model resolution and catalogue, retries, and the
// `scripted` file provider. Importing this module loads no `@ai-sdk/*` package.
import './seams.ts'

export * from './retry.ts'
export * from './config.ts'
export * from './catalog.ts'
export {
  type EndpointConfig,
  type EndpointsConfig,
  PROVIDER_KINDS,
  type ProviderKind,
} from './endpoints.ts'
export { acceptsImages } from './images.ts'
export {
  ANTHROPIC_THINKING_BUDGET,
  type EffortSupport,
  effortProviderOptions,
  effortSupport,
} from './effort.ts'
export {
  catalogKind,
  type ListableProvider,
  type ModelChoice,
  type ModelSource,
  mergeListedModels,
  providerUsable,
  type StaticChoices,
  staticModelChoices,
} from './model-list.ts'
export {
  fetchProviderModels,
  MODEL_LIST_MAX,
  MODEL_LIST_TIMEOUT_MS,
  type ModelListTarget,
} from './provider-models.ts'
export { isContextTooLong, isTransientStatus, parseRetryAfter, toLlmError } from './errors.ts'
export { type BaseUrlSource, type LlmOrigins, projectBaseUrlProblem, type ValueOrigin } from './origins.ts'
export { redact, REDACTED } from './secrets.ts'
export {
  BUILTIN_ENDPOINTS,
  DEFAULT_KEY_ENV,
  defaultModel,
  type Env,
  keyVariables,
  knownProviders,
  modelProblemCode,
  NO_MODEL_HELP,
  noModelHelp,
  type ResolvedModel,
  resolveModel,
  splitModel,
} from './resolve.ts'
export { createProviderAdapter, type ProviderRuntime } from './providers/adapter.ts'
export { REDACTED_THINKING_PREFIX } from './providers/anthropic.ts'
export {
  createScriptedFileAdapter,
  cursorPath,
  loadScriptFile,
  readCursor,
  requestsPath,
} from './scripted.ts'
export { createLlmPlugin, LlmPlugin, LlmProviders, type LlmRuntimeOptions } from './plugin.ts'
