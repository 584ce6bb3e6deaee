// @tack/hooks-codex: runs users' unmodified Codex command hooks on tack's seams (40-hooks.md Part C).
export { HOOKS_CODEX_SOURCE, modelOf } from './bridge.ts'
export { type CodexCliOptions, type CodexHookRow, listCodexHooks, trustCodexHooks } from './cli.ts'
export { HooksCodexConfig } from './config.ts'
export {
  candidateSources,
  defaultCodexHome,
  type Discovered,
  discoverHooks,
  type HookSource,
  type SourceKind,
  type SourceProblem,
} from './discovery.ts'
export {
  CODEX_POINTS,
  type CodexPoint,
  isCodexPoint,
  NOT_FIRED_CODEX_EVENTS,
  snakeEvent,
} from './events.ts'
export {
  CODEX_DEFAULT_TIMEOUT_SEC,
  type CodexHandler,
  type CodexHookEntry,
  HooksFileError,
  type ParsedHooksFile,
  parseHooksFile,
} from './hooks-file.ts'
export { type Interpreted, interpretCodexOutput } from './interpret.ts'
export { codexMatcherProblem } from './matcher.ts'
export {
  CODEX_SUBAGENT_TYPE,
  type CodexPayload,
  type CodexPermissionMode,
  codexPermissionMode,
  postToolUsePayload,
  preToolUsePayload,
  sessionStartPayload,
  stopPayload,
  userPromptSubmitPayload,
} from './payload.ts'
export { HooksCodexPlugin } from './plugin.ts'
export { deniedMessage } from './points/tool-use.ts'
export {
  type CodexHookListing,
  CodexHookRegistry,
  type CodexHookStatus,
  type CodexHookView,
  type CodexTrustResult,
  type TrustMode,
  UNTRUSTED_WORKSPACE,
} from './registry.ts'
export { type PointRun, type RunnableHook, runPoint, selectHooks } from './runner.ts'
export { HooksCodexService } from './service.ts'
export {
  canonicalJson,
  readTrustStore,
  TRUST_STORE_FILE,
  type TrustStatus,
  trustHash,
  trustKey,
  trustStatus,
  writeTrustRecords,
} from './trust.ts'
export { CodexRolloutProjector, ROLLOUT_VERSION, rolloutPath } from './rollout.ts'
export { createRolloutFiles, type RolloutFiles } from './transcripts.ts'
