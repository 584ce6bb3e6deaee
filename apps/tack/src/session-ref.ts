// Naming a session on the command line (issue 10 item 1, 80-cli §2): a full id or a unique prefix, as
// git names commits; an ambiguous prefix lists every match, one line each. `-c` picks the most recent
// session of a workspace. All of it reads the store's summaries (`list`), never a session's events.
import type { SessionSummary } from '@tack/session'
import { NotFoundError } from './errors.ts'

interface Lister {
  list(): Promise<readonly SessionSummary[]>
}

/**
 * The summary of the session `ref` names: an exact id, else the one id that starts with `ref`. `redact`
 * is the output's redactor: an ambiguous prefix's error lists first prompts, cut short, and a secret cut
 * in two would no longer be recognised when the message is printed.
 */
export async function findSession(
  store: Lister,
  ref: string,
  redact: (text: string) => string = (text) => text,
): Promise<SessionSummary> {
  const all = await store.list()
  const exact = all.find((s) => s.id === ref)
  if (exact) return exact
  const matches = ref ? all.filter((s) => s.id.startsWith(ref)) : []
  if (matches.length === 1) return matches[0]
  if (matches.length === 0)
    throw new NotFoundError(`no session ${JSON.stringify(ref)} (tack sessions list shows them)`)
  throw new NotFoundError(
    `session id ${JSON.stringify(ref)} is ambiguous; it matches:\n${newestFirst(matches)
      .map((s) => `  ${describeSession(s, redact)}`)
      .join('\n')}`,
  )
}

/**
 * The session `tack run -c` continues: the one of `workspace` with the latest activity. A subagent's
 * own session (it names a parent but was not forked from it) is not one a person continues.
 */
export async function latestSessionOf(store: Lister, workspace: string): Promise<SessionSummary> {
  const latest = resumableSessionsOf(await store.list(), workspace)[0]
  if (!latest)
    throw new NotFoundError(
      `no session to continue in ${workspace} (start one with tack, or tack run "task")`,
    )
  return latest
}

/**
 * The sessions a person continues in `workspace`, newest first (`-c`, the resume picker).
 */
export function resumableSessionsOf(all: readonly SessionSummary[], workspace: string): SessionSummary[] {
  return newestFirst(all.filter((s) => resumableIn(s, workspace)))
}

/**
 * A session a person continues in `workspace`: its own or a fork, not a subagent's (it names a parent but was
 * not forked from it), and one that ran a turn — an ACP `session/new` never prompted, a fork at 0 or a UI
 * opened and left hold nothing to go back to (docs/decisions/0020-continue-and-resume.md).
 */
export function resumableIn(s: SessionSummary, workspace: string): boolean {
  return s.cwd === workspace && s.turns > 0 && (s.parentSession === undefined || s.seedLength !== undefined)
}

/** Newest activity first (last event's time, else creation), then id for a stable order. */
export function newestFirst(list: readonly SessionSummary[]): SessionSummary[] {
  const at = (s: SessionSummary) => s.lastTime ?? s.createdAt
  return [...list].sort((a, b) => (at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : a.id < b.id ? -1 : 1))
}

/** One line naming a session: id, last activity, turns and its first prompt (redacted before it is cut). */
export function describeSession(
  s: SessionSummary,
  redact: (text: string) => string = (text) => text,
): string {
  return `${s.id}  ${s.lastTime ?? s.createdAt}  ${s.turns} turn(s)  ${cut(redact(s.firstPrompt ?? ''), 60)}`
}

/** `text` on one line, at most `max` characters (an ellipsis marks a cut). */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat)
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat
}
