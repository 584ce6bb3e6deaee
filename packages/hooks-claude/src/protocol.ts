// The Claude Code points tack raises (40-hooks.md B3) and the payload shapes it sends (B8).

/** The seven Claude Code events the bridge maps onto tack's seams. */
export const CLAUDE_POINTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'SubagentStart',
  'SubagentStop',
] as const
export type ClaudePoint = (typeof CLAUDE_POINTS)[number]

export function isClaudePoint(name: string): name is ClaudePoint {
  return (CLAUDE_POINTS as readonly string[]).includes(name)
}

/** Points whose matcher tests something (the others ignore a matcher, as Claude Code does). */
export const MATCHER_POINTS: ReadonlySet<ClaudePoint> = new Set([
  'SessionStart',
  'PreToolUse',
  'PostToolUse',
  'SubagentStart',
  'SubagentStop',
])

/** Points where a handler's `if` is evaluated; elsewhere a handler with `if` never runs. */
export const TOOL_POINTS: ReadonlySet<ClaudePoint> = new Set(['PreToolUse', 'PostToolUse'])

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
