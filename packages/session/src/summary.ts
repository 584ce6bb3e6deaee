// What `tack sessions list` shows of a session besides its header (issue 10 item 1): the first prompt,
// the model and the number of turns. Defined here, over a log, as the reference every store's `list`
// must agree with; a store answers it without loading every event (store-sqlite: an indexed query).
import type { ContentBlock, SessionEvent, SessionEventType } from './events.ts'

/** How much of the first prompt a summary keeps, in code points (the list cuts it further). */
export const SUMMARY_PROMPT_CHARS = 200

/** The event types a summary reads: a store may index exactly these. */
export const SUMMARY_EVENT_TYPES: readonly SessionEventType[] = Object.freeze([
  'turn/start',
  'user/message',
  'request/header',
  'request/header-delta',
])

export interface LogSummary {
  /** `turn/start` events. */
  readonly turns: number
  /** The first text block of the first `user/message`, cut to `SUMMARY_PROMPT_CHARS` code points. */
  readonly firstPrompt?: string
  /** The model of the last request header in force (a snapshot's, or a later delta's whole config). */
  readonly model?: string
}

/** The summary fields of a log (the memory store's answer, and the contract for the others). */
export function summarizeLog(events: readonly SessionEvent[]): LogSummary {
  let turns = 0
  let firstPrompt: string | undefined
  let model: string | undefined
  for (const e of events) {
    if (e.type === 'turn/start') turns++
    else if (e.type === 'user/message' && firstPrompt === undefined) {
      const first = (e as SessionEvent<'user/message'>).data.content[0] as ContentBlock | undefined
      if (first?.type === 'text') firstPrompt = cutPrompt(first.text)
    } else if (e.type === 'request/header') {
      model = (e as SessionEvent<'request/header'>).data.header.config.model
    } else if (e.type === 'request/header-delta') {
      const config = (e as SessionEvent<'request/header-delta'>).data.config
      if (config?.model !== undefined) model = config.model
    }
  }
  return {
    turns,
    ...(firstPrompt !== undefined ? { firstPrompt } : {}),
    ...(model !== undefined ? { model } : {}),
  }
}

/** How much of the first prompt a store reads to cut it (`cutPrompt` looks one code point past the cut). */
export const SUMMARY_PROMPT_READ_CHARS = SUMMARY_PROMPT_CHARS + 1

/** A run of the characters API keys and tokens are written in. */
const TOKEN_END = /[A-Za-z0-9_\-+/=.~:]+$/
const TOKEN_CHAR = /^[A-Za-z0-9_\-+/=.~:]/

/**
 * `text` cut to `SUMMARY_PROMPT_CHARS` code points (as SQLite's `substr` counts them). A token the cut
 * goes through is left out whole: a key pasted into a long prompt would otherwise show in part, and no
 * redactor recognises part of a value (docs/decisions/0395-split-secrets-in-streams.md). A store passes
 * at least `SUMMARY_PROMPT_READ_CHARS` code points when the prompt has them.
 */
export function cutPrompt(text: string): string {
  if (text.length <= SUMMARY_PROMPT_CHARS) return text
  const points = Array.from(text)
  if (points.length <= SUMMARY_PROMPT_CHARS) return text
  const kept = points.slice(0, SUMMARY_PROMPT_CHARS).join('')
  return TOKEN_CHAR.test(points[SUMMARY_PROMPT_CHARS]) ? kept.replace(TOKEN_END, '') : kept
}
