// The Claude Code points tack raises (40-hooks.md B3) and the payload shapes it sends (B8).

/** The Claude Code events the bridge maps onto tack's seams (README "Points"). */
export const CLAUDE_POINTS = [
  'SessionStart',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
  'Notification',
  'InstructionsLoaded',
  'PreModelSwitch',
  'PostModelSwitch',
  'ConfigChange',
] as const
export type ClaudePoint = (typeof CLAUDE_POINTS)[number]

export function isClaudePoint(name: string): name is ClaudePoint {
  return (CLAUDE_POINTS as readonly string[]).includes(name)
}

/**
 * Claude Code events tack never fires, each with why (README "Events tack does not fire"); `tack hooks
 * list` shows the reason for a configured one.
 */
export const NOT_FIRED: Readonly<Record<string, string>> = Object.freeze({
  PermissionDenied:
    'tack has no automatic permission mode that denies calls on its own (rules and modes deny before any ask)',
  MessageDisplay: 'tack shows assistant text as it streams and cannot replace it (displayContent)',
  CwdChanged: 'each bash call starts in the workspace; tack does not track a shell working folder',
  FileChanged: 'tack does not watch files',
  Elicitation: 'tack has no MCP elicitation',
  ElicitationResult: 'tack has no MCP elicitation',
  TaskCreated: 'tack has no task list of Claude Code’s kind',
  TaskCompleted: 'tack has no task list of Claude Code’s kind',
  Setup: 'tack has no --init or maintenance run',
  TeammateIdle: 'tack has no agent teams',
  WorktreeCreate: 'tack does not manage worktrees',
  WorktreeRemove: 'tack does not manage worktrees',
  DirectoryAdded: 'tack has no /add-dir',
})

/** Why a handler of `event` never runs: an event tack does not fire, or one it does not know. */
export function notFiredReason(event: string): string {
  return `not fired by tack: ${NOT_FIRED[event] ?? `${event} is not a Claude Code event tack knows`}`
}

/** Points whose matcher tests nothing (Claude Code ignores a matcher there); every other point has a subject. */
const MATCHERLESS: ReadonlySet<ClaudePoint> = new Set(['UserPromptSubmit', 'Stop', 'PostToolBatch'])

/** Points whose matcher tests something (the others ignore a matcher, as Claude Code does). */
export const MATCHER_POINTS: ReadonlySet<ClaudePoint> = new Set(
  CLAUDE_POINTS.filter((p) => !MATCHERLESS.has(p)),
)

/** Points where a handler's `if` is evaluated; elsewhere a handler with `if` never runs. */
export const TOOL_POINTS: ReadonlySet<ClaudePoint> = new Set([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
])

/** Claude Code's permission modes, as `permission_mode` carries them. */
export type ClaudePermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions'

/** The fields every payload has (B8). */
export interface ClaudeBasePayload {
  readonly session_id: string
  readonly transcript_path: string
  readonly cwd: string
  readonly hook_event_name: ClaudePoint
  readonly permission_mode: ClaudePermissionMode
  readonly agent_id?: string
  readonly agent_type?: string
}

/** A payload as sent on stdin: the base fields plus the point's own (B8). */
export type ClaudePayload = ClaudeBasePayload & { readonly [field: string]: unknown }

/** The agent type tack reports for its subagents (it has one kind). */
export const SUBAGENT_TYPE = 'general-purpose'

/** The plugin source stamped on everything the bridge injects (B5). */
export const HOOKS_CLAUDE_SOURCE = Object.freeze({ kind: 'plugin', name: 'hooks-claude' } as const)
