// @tack/hook-protocol: the shared hook protocol both bridges use (40-hooks.md Part A). A library: it
// registers nothing on a context.
export { decodeHookOutput, readJsonFields } from './codec.ts'
export { createDetachedRuns, type DetachedRuns } from './detached.ts'
export {
  appendHookInvoked,
  appendHookResult,
  DEFAULT_STDERR_SUMMARY_MAX_CHARS,
  deriveHookDecision,
  HOOK_LOG_EVENTS,
  type HookInvocation,
  type HookResult,
  type HookResultDecision,
  type HookResultRecord,
  hookResultOf,
  summarizeStderr,
} from './log-events.ts'
export { isInvalidMatcher, matchesMatcher } from './matcher.ts'
export { EMPTY_OUTCOME, type HookLevel, levelOf, type MergedHookOutcome, mergeHookOutputs } from './merge.ts'
export {
  createHookBackend,
  defaultHookBackend,
  type HookBackend,
  hookCommandLine,
  hookTimeoutMs,
  type RunHookOptions,
  runHook,
} from './run.ts'
export {
  DEFAULT_HOOK_TIMEOUT_MS,
  type HookCommand,
  type HookDecision,
  type HookDialect,
  type HookOutput,
  type RawHookResult,
} from './types.ts'
export { type HookPermissionMode, hookPermissionMode } from './permission-mode.ts'
export { describeJsonError, findJsonSyntaxProblem, type JsonSyntaxProblem } from './json-position.ts'
export { safeFileName, TranscriptFile, type TranscriptProjector } from './transcript-file.ts'
