// The payload fields Claude Code adds beyond the basics (issue 11.1; protocols.md §A.3, §A.4):
// `prompt_id` (one UUID per user prompt, shared by that prompt's UserPromptSubmit, tool events and
// Stop), `effort` (the model's reasoning setting), and what a tool call needs from before it ran
// (`duration_ms`, the file a Write or Edit replaced).
import { randomUUID } from 'node:crypto'
import { isAbsolute, resolve } from 'node:path'
import type { Agent } from '@tack/agent'
import { readTextOrNull } from '@tack/claude-protocol'
import type { Session } from '@tack/session'
import { rootAgent } from './payload.ts'

/** Claude Code's effort levels (`effort.level`, `CLAUDE_EFFORT`). */
export type EffortLevel = 'low' | 'medium' | 'high' | 'xhigh' | 'max'
const LEVELS: readonly EffortLevel[] = ['low', 'medium', 'high', 'xhigh', 'max']
/** Provider option names that carry a reasoning effort (OpenAI `reasoningEffort`, Anthropic `effort`, …). */
const EFFORT_KEYS = ['effort', 'reasoningEffort', 'reasoning_effort']

/** The agent's reasoning effort from its call config's provider options; `medium` when unknown. */
export function effortLevel(agent: Agent): EffortLevel {
  for (const options of Object.values(agent.options.config?.providerOptions ?? {})) {
    for (const key of EFFORT_KEYS) {
      const value = options[key]
      if (typeof value === 'string' && (LEVELS as readonly string[]).includes(value))
        return value as EffortLevel
      if (value === 'minimal') return 'low'
    }
  }
  return 'medium'
}

/** One UUID per user prompt of a top-level session; subagents report their root's prompt. */
export class PromptIds {
  readonly #ids = new WeakMap<Session, string>()

  /** A new user prompt of `agent`'s session: a fresh id. */
  begin(agent: Agent): string {
    const id = randomUUID()
    this.#ids.set(rootAgent(agent).session, id)
    return id
  }

  /** The current prompt's id (a fresh one when no prompt was seen, e.g. a resumed session's wake-up). */
  current(agent: Agent): string {
    return this.#ids.get(rootAgent(agent).session) ?? this.begin(agent)
  }
}

/** What PostToolUse needs from the moment the call was approved. */
export interface CallStart {
  readonly startedAt: number
  /** The file a Write or Edit is about to replace: its text, or null when it did not exist. */
  readonly originalFile?: string | null
  /** The todo list a TodoWrite is about to replace. */
  readonly previousTodos?: readonly unknown[]
}

/**
 * The session's todo list as its log holds it: the last `todo/write` event's `todos` (the log-only
 * event `@tack/tool-fs` appends), else `[]`. Read backwards, so a long log costs only up to its last list.
 */
export function currentTodos(session: Pick<Session, 'length' | 'eventAt'>): readonly unknown[] {
  for (let seq = session.length - 1; seq >= 0; seq--) {
    const event = session.eventAt(seq)
    if ((event?.type as string | undefined) !== 'todo/write') continue
    const todos = (event?.data as { todos?: unknown } | undefined)?.todos
    return Array.isArray(todos) ? todos : []
  }
  return []
}

/** Calls between PreToolUse's approval and PostToolUse, by call id. */
export class CallStarts {
  readonly #calls = new Map<string, CallStart>()

  /**
   * Records the start of an approved call; for Write and Edit, the text of `filePath` before it runs
   * (undefined `filePath`: no snapshot, as when no PostToolUse hook will see the call).
   */
  record(
    callId: string,
    claudeName: string,
    filePath: unknown,
    cwd: string,
    previousTodos?: readonly unknown[],
  ): void {
    const start: { -readonly [K in keyof CallStart]: CallStart[K] } = {
      startedAt: Date.now(),
      ...(previousTodos ? { previousTodos } : {}),
    }
    if (
      (claudeName === 'Write' || claudeName === 'Edit') &&
      typeof filePath === 'string' &&
      filePath !== ''
    ) {
      start.originalFile = readTextOrNull(isAbsolute(filePath) ? filePath : resolve(cwd, filePath))
    }
    this.#calls.set(callId, start)
  }

  /** The call's start, forgotten once taken. */
  take(callId: string): CallStart | undefined {
    const start = this.#calls.get(callId)
    this.#calls.delete(callId)
    return start
  }
}

// The bounded, non-blocking file read lives with Claude Code's response shapes; re-exported for this bridge's callers.
export { MAX_PAYLOAD_FILE_BYTES, readTextOrNull } from '@tack/claude-protocol'
