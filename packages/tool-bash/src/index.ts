// @tack/tool-bash: the `bash` tool (TL-17) and the process backend it shares with trusted callers
// such as hooks (TL-33). The backend alone, without cordis, is `@tack/tool-bash/backend`.
export * from './backend-index.ts'
export { createBashTool, NO_SESSION_FOLDER } from './bash-tool.ts'
export { BashToolConfig, type BashToolConfigInput } from './config.ts'
export { type BashArgs, type BashMeta, presentBashCall, presentBashResult } from './present.ts'
export { BashToolPlugin } from './plugin.ts'
export { type BashOutcome, outcomeOf, resultText } from './result-text.ts'
