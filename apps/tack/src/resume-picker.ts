// The resume picker's rows (80-cli.md §2 `tack -r` with no id, `/resume`): the sessions of one folder,
// newest first, each with its first prompt on one line and its last activity. Read from the store's
// summaries (`list`), which come from its summary index — never from a session's events — so a store of
// thousands of sessions answers at once.
import type { SessionSummary } from '@tack/session'
import { cut, newestFirst, resumableIn } from './session-ref.ts'

export interface ResumeChoice {
  readonly id: string
  /** The first prompt, on one line, trimmed and cut to the picker's width; '' for a session without one. */
  readonly firstPrompt: string
  /** The last event's time (ISO 8601), else the session's creation. */
  readonly time: string
  readonly turns: number
  /** The model of the last request, when one was sent. */
  readonly model?: string
}

interface Lister {
  list(): Promise<readonly SessionSummary[]>
}

export interface ResumeChoicesOptions {
  /** At most this many rows (the newest); default all. */
  readonly limit?: number
  /** Characters of the first prompt kept (an ellipsis marks a cut); default 120. The store keeps 200. */
  readonly promptChars?: number
}

/** Sessions a person can resume in `workspace` (as `tack run -c` picks them), newest activity first. */
export async function resumeChoices(
  store: Lister,
  workspace: string,
  opts: ResumeChoicesOptions = {},
): Promise<ResumeChoice[]> {
  const rows = newestFirst((await store.list()).filter((s) => resumableIn(s, workspace))).slice(
    0,
    opts.limit ?? Number.POSITIVE_INFINITY,
  )
  return rows.map((s) => ({
    id: s.id,
    firstPrompt: cut(s.firstPrompt ?? '', opts.promptChars ?? 120),
    time: s.lastTime ?? s.createdAt,
    turns: s.turns,
    ...(s.model ? { model: s.model } : {}),
  }))
}
