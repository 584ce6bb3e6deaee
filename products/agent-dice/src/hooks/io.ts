// What a hook run sees and says: its stdin text, an explicit environment, and two output sinks.
// Hooks take it as a value so tests and `agent-dice hook …` drive the same code as the hook files.
import { parseJsonObject } from '../core/json.ts'
import type { HostEnvironment } from '../host/env.ts'
import { isDebug } from '../host/env.ts'

export interface HookIo extends HostEnvironment {
  readonly stdin: string
  stdout(text: string): void
  stderr(text: string): void
}

/** 0 lets the agent stop; 2 hands stderr back to the model (Stop) — never anything else. */
export type HookExit = 0 | 2

export type HookName = 'claude-stop' | 'claude-session-start' | 'codex-stop' | 'codex-session-start'
export const HOOK_NAMES: readonly HookName[] = [
  'claude-stop',
  'claude-session-start',
  'codex-stop',
  'codex-session-start',
]

/** The stdin payload as an object; anything unparseable or not an object counts as `{}`. */
export const parseHookInput = (stdin: string): Record<string, unknown> => parseJsonObject(stdin)

/** A non-empty string field of the payload. */
export function stringField(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key]
  return typeof value === 'string' && value ? value : undefined
}

/** Reports a swallowed failure on stderr, only under DEBUG (a hook must never break its agent). */
export function reportFailure(io: HookIo, label: string, error: unknown): void {
  if (!isDebug(io.env)) return
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  io.stderr(`${label} ${detail}\n`)
}
