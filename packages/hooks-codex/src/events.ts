// Codex hook event names (protocols.md §B.3): which ones this bridge runs, which ones Codex knows but
// tack has no moment for (listed, never run), and the snake_case label Codex uses in trust keys.

/** The points this bridge runs (40-hooks.md C2, plus docs/decisions/0180 and 0181). */
export const CODEX_POINTS = [
  'SessionStart',
  'SubagentStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SubagentStop',
  'Stop',
  'Interrupt',
] as const
export type CodexPoint = (typeof CODEX_POINTS)[number]

/**
 * Events Codex defines that this bridge does not fire, each with why (shown by `tack hooks list` and in
 * the load warning). The README's *Not fired* section says the same.
 */
export const NOT_FIRED_CODEX_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  StopFailure:
    "Codex 0.171 does not fire StopFailure (only Codex's development branch has it, with a model-recovery answer tack has no equivalent for)",
  SessionEnd:
    'Codex 0.171 has no SessionEnd event in its sources, so there is no payload or output contract to follow',
})

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
  switch (point) {
    case 'SessionStart':
    case 'SubagentStart':
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PostToolUse':
    case 'PreCompact':
    case 'PostCompact':
    case 'SubagentStop':
      return true
    case 'UserPromptSubmit':
    case 'Stop':
    case 'Interrupt':
      return false
    default:
      return point satisfies never
  }
}
