// The stdin payloads Codex hooks get (40-hooks.md C4, protocols.md §B.3): `session_id` (a subagent
// carries its top-level agent's), `transcript_path` (the agent's rollout-shaped export, `rollout.ts`), `cwd` (the
// workspace), `hook_event_name`, `model`, `turn_id` on turn-scoped points, `permission_mode`, inside
// subagents `agent_id` and `agent_type`, plus each point's own fields. Compact JSON with no trailing
// newline is the runner's part (dialect `codex`).
import { lastAssistantText as lastTextOf, blockText } from '@tack/session'
import { hookPermissionMode } from '@tack/hook-protocol'
import type { Agent } from '@tack/agent'
import type { Content, SessionEvent } from '@tack/session'
import type { CodexPoint } from './events.ts'

/** Codex's permission modes (the input schemas' enum). */
export type CodexPermissionMode = 'default' | 'acceptEdits' | 'plan' | 'dontAsk' | 'bypassPermissions'

/** tack's permission modes (80-cli.md §4) as Codex names them; unknown or unset is `default`. */
export function codexPermissionMode(mode: string | undefined): CodexPermissionMode {
  return hookPermissionMode(mode)
}

/**
 * The `agent_type` of a tack subagent. Codex names the built-in role of a spawned agent `default`;
 * tack's subagent tool has one kind, so every child is reported as that role.
 */
export const CODEX_SUBAGENT_TYPE = 'default'

export function topLevelOf(agent: Agent): Agent {
  let a = agent
  while (a.parent) a = a.parent
  return a
}

/** A turn's id: unique across sessions and stable for the turn (`<session id>:<turn>`). */
export function turnIdOf(agent: Agent, turn: number): string {
  return `${agent.session.id}:${turn}`
}

/** The number of the turn the agent's log is in (its last `turn/start`), or undefined before any. */
export function currentTurn(agent: Agent): number | undefined {
  const events = agent.session.events()
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e.type === 'turn/start') return (e as SessionEvent<'turn/start'>).data.turn
  }
  return undefined
}

/** The text of the agent's last assistant message, or null when it has none (Codex sends null). */
export function lastAssistantText(agent: Agent): string | null {
  return lastTextOf(agent.session.events()) ?? null
}

export function contentText(content: Content): string {
  return typeof content === 'string' ? content : content.map(blockText).join('\n')
}

/** What every payload of one agent shares, resolved once per run. */
export interface PayloadContext {
  readonly agent: Agent
  readonly model: string
  /** The agent's rollout-shaped session file (`rollout.ts`), or null when none is kept. */
  readonly transcriptPath: string | null
  /** Set on turn-scoped points. */
  readonly turn?: number
}

export type CodexPayload = Readonly<Record<string, unknown>>

function common(point: CodexPoint, c: PayloadContext): Record<string, unknown> {
  const { agent } = c
  return {
    session_id: topLevelOf(agent).session.id,
    ...(c.turn !== undefined ? { turn_id: turnIdOf(agent, c.turn) } : {}),
    ...(agent.parent ? { agent_id: agent.id, agent_type: CODEX_SUBAGENT_TYPE } : {}),
    transcript_path: c.transcriptPath,
    cwd: agent.cwd,
    hook_event_name: point,
    model: c.model,
    permission_mode: codexPermissionMode(agent.options.permissionMode),
  }
}

export function sessionStartPayload(
  c: PayloadContext,
  source: 'startup' | 'resume' | 'clear' | 'compact',
): CodexPayload {
  const { turn: _turn, ...sessionScoped } = c
  return { ...common('SessionStart', sessionScoped), source }
}

export function userPromptSubmitPayload(c: PayloadContext, prompt: string): CodexPayload {
  return { ...common('UserPromptSubmit', c), prompt }
}

export interface ToolFields {
  readonly tool_name: string
  readonly tool_use_id: string
  readonly tool_input: unknown
}

export function preToolUsePayload(c: PayloadContext, tool: ToolFields): CodexPayload {
  return { ...common('PreToolUse', c), ...tool }
}

export function postToolUsePayload(c: PayloadContext, tool: ToolFields, toolResponse: unknown): CodexPayload {
  return { ...common('PostToolUse', c), ...tool, tool_response: toolResponse }
}

export function stopPayload(
  c: PayloadContext,
  stopHookActive: boolean,
  lastAssistantMessage: string | null,
): CodexPayload {
  return {
    ...common('Stop', c),
    stop_hook_active: stopHookActive,
    last_assistant_message: lastAssistantMessage,
  }
}

/**
 * SubagentStart (docs/decisions/0180): the child's fields (its `agent_id`, `agent_type`, the turn its
 * task opens) with `transcript_path` naming the spawning agent's file, the thread that started it.
 */
export function subagentStartPayload(
  child: PayloadContext,
  parentTranscriptPath: string | null,
): CodexPayload {
  return { ...common('SubagentStart', child), transcript_path: parentTranscriptPath }
}

/** SubagentStop: as SubagentStart, plus the child's own file and Stop's fields. */
export function subagentStopPayload(
  child: PayloadContext,
  parentTranscriptPath: string | null,
  stopHookActive: boolean,
  lastAssistantMessage: string | null,
): CodexPayload {
  return {
    ...common('SubagentStop', child),
    transcript_path: parentTranscriptPath,
    agent_transcript_path: child.transcriptPath,
    stop_hook_active: stopHookActive,
    last_assistant_message: lastAssistantMessage,
  }
}

/** PermissionRequest: the call about to be put to the approver (no `tool_use_id`, as in Codex). */
export function permissionRequestPayload(
  c: PayloadContext,
  tool: Pick<ToolFields, 'tool_name' | 'tool_input'>,
): CodexPayload {
  return { ...common('PermissionRequest', c), tool_name: tool.tool_name, tool_input: tool.tool_input }
}

/** Codex's compaction triggers: `/compact` is `manual`; tack's automatic and context-too-long ones `auto`. */
export type CodexCompactTrigger = 'manual' | 'auto'

/** PreCompact / PostCompact: Codex sends no `permission_mode` on them (its input schemas). */
export function compactPayload(
  point: 'PreCompact' | 'PostCompact',
  c: PayloadContext,
  trigger: CodexCompactTrigger,
): CodexPayload {
  const { permission_mode: _mode, ...rest } = common(point, c)
  return { ...rest, trigger }
}

/** Interrupt: the common fields of the interrupted turn, nothing else. */
export function interruptPayload(c: PayloadContext): CodexPayload {
  return common('Interrupt', c)
}
