// `@tack/tool-bash/backend`: the process backend alone, without cordis or the tool registry, for
// hook runners and other trusted callers that want a fast import.
export {
  MAX_TIMER_MS,
  type ProcessResult,
  type RunOptions,
  runProcess,
  type SpawnError,
} from './backend.ts'
export { COMMAND_ENV_OVERRIDES, isSecretName, SECRET_NAME_PARTS, scrubEnvironment } from './environment.ts'
export { commandLine, quoteShellArg } from './shell-quote.ts'
export { decodeTail, TailBuffer } from './tail-buffer.ts'
export {
  spawnTrusted,
  TRUSTED_DEFAULT_GRACE_MS,
  TRUSTED_DEFAULT_MAX_OUTPUT_BYTES,
  type TrustedSpawnOptions,
} from './trusted.ts'
