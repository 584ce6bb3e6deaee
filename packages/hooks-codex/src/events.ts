// Codex hook event names (protocols.md §B.3): which ones this bridge runs, which ones Codex knows but
// tack has no seam for (dropped with a warning), and the snake_case label Codex uses in trust keys.

/** The points this bridge runs (40-hooks.md C2). */
export const CODEX_POINTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const
export type CodexPoint = (typeof CODEX_POINTS)[number]

/** Events Codex defines that this bridge does not run (C1: dropped with a warning). */
export const UNSUPPORTED_CODEX_EVENTS: readonly string[] = Object.freeze([
  'PermissionRequest',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'StopFailure',
  'SessionEnd',
  'Interrupt',
])

export function isCodexPoint(event: string): event is CodexPoint {
  return (CODEX_POINTS as readonly string[]).includes(event)
}

/** `PreToolUse` → `pre_tool_use`, the label Codex uses in hook trust keys. */
export function snakeEvent(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase()
}

/**
 * Whether a point's matcher is used (and therefore validated at discovery). Codex ignores the
 * matcher of UserPromptSubmit and Stop, and does not even validate it (§B.4).
 */
export function usesMatcher(point: CodexPoint): boolean {
  return point === 'SessionStart' || point === 'PreToolUse' || point === 'PostToolUse'
}
