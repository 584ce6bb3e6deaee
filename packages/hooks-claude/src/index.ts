// @tack/hooks-claude: runs users' unmodified Claude Code command hooks on tack's seams (40-hooks.md Part B).
import './seams.ts'

export { HooksClaudeConfig, type SourceSpec } from './config.ts'
export { HooksClaudePlugin } from './plugin.ts'
export { HooksClaudeService } from './service.ts'
export {
  type HandlerStatus,
  type ListedHandler,
  type SkipPredicate,
  type SourceProblem,
  UNTRUSTED_PROJECT_HOOKS,
} from './settings/registry.ts'
export type { DiscoveredHandler, HookSource, SourceKind } from './settings/source.ts'
export {
  CLAUDE_POINTS,
  type ClaudeBasePayload,
  type ClaudePayload,
  type ClaudePermissionMode,
  type ClaudePoint,
  HOOKS_CLAUDE_SOURCE,
  NOT_FIRED,
  notFiredReason,
  SUBAGENT_TYPE,
} from './protocol.ts'
export { claudePermissionMode } from './payload.ts'
export { bashParts, globRegex, ifMatches } from './if-condition.ts'
export { GENERIC_STOP_FEEDBACK } from './points/stop.ts'
export { HOOK_TEXT_MAX_CHARS } from './bounded-text.ts'
export * from './transcript/index.ts'
export { type ClaudeHookRow, type CliOptions, listClaudeHooks } from './cli.ts'
