// Script entries for the scripted model. They are plain JSON (except `respond`), so the same entries
// can be played by the `scripted` provider from a file in subprocess tests (AL-21).
import type { FinishReason, Usage } from '@tack/session'
import type { LlmRequest } from '../types.ts'

export interface ScriptedCall {
  readonly name: string
  /** Arguments as a value (JSON-encoded on the wire) or as raw text (e.g. deliberately invalid JSON). */
  readonly args?: unknown
  readonly rawArguments?: string
  readonly id?: string
}

export type ScriptEntry =
  | {
      readonly kind: 'text'
      readonly text: string
      readonly reasoning?: string
      readonly usage?: Usage
      readonly finishReason?: FinishReason
    }
  | {
      readonly kind: 'tool-calls'
      readonly calls: readonly ScriptedCall[]
      readonly text?: string
      readonly reasoning?: string
      readonly usage?: Usage
      readonly finishReason?: FinishReason
    }
  | {
      readonly kind: 'error'
      readonly message: string
      readonly code?: string
      readonly transient?: boolean
      readonly status?: number
      /** Fail after this many chunks were delivered (a broken stream) instead of before the first. */
      readonly afterChunks?: number
      readonly text?: string
    }
  | { readonly kind: 'hang'; readonly text?: string }
  /** In-process only: decide from the request. */
  | { readonly kind: 'respond'; readonly respond: (request: LlmRequest) => ScriptEntry }

export function text(
  t: string,
  opts: { usage?: Usage; reasoning?: string; finishReason?: FinishReason } = {},
): ScriptEntry {
  return { kind: 'text', text: t, ...opts }
}

export function reasoning(r: string, t: string, opts: { usage?: Usage } = {}): ScriptEntry {
  return { kind: 'text', text: t, reasoning: r, ...opts }
}

export function toolCalls(
  calls: readonly ScriptedCall[],
  opts: { text?: string; reasoning?: string; usage?: Usage } = {},
): ScriptEntry {
  return { kind: 'tool-calls', calls, ...opts }
}

export function maxTokens(t: string, opts: { usage?: Usage } = {}): ScriptEntry {
  return { kind: 'text', text: t, finishReason: 'length', ...opts }
}

export function error(
  e: string | Error,
  opts: { transient?: boolean; code?: string; status?: number; afterChunks?: number; text?: string } = {},
): ScriptEntry {
  return { kind: 'error', message: typeof e === 'string' ? e : e.message, ...opts }
}

export function hang(opts: { text?: string } = {}): ScriptEntry {
  return { kind: 'hang', ...opts }
}

export function respond(fn: (request: LlmRequest) => ScriptEntry): ScriptEntry {
  return { kind: 'respond', respond: fn }
}
