// Keeping transcripts in step with the log (40-hooks.md B9): before a hook is spawned, the bridge
// appends the lines for what the session has gained since the last sync, synchronously, so the hook
// reads an up-to-date file. The first sync in a process rewrites the file from the start (the log is
// the truth; a resumed session's old file is replaced, never appended to twice).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Session } from '@tack/session'
import { ClaudeTranscriptProjector, type TranscriptOptions } from './lines.ts'

/** `<dir>/<session id>.jsonl` for a top-level session. */
export function sessionTranscriptPath(dir: string, sessionId: string): string {
  return join(dir, `${safe(sessionId)}.jsonl`)
}

/** `<dir>/<root session id>/subagents/agent-<agent id>.jsonl` for a subagent. */
export function subagentTranscriptPath(dir: string, rootSessionId: string, agentId: string): string {
  return join(dir, safe(rootSessionId), 'subagents', `agent-${safe(agentId)}.jsonl`)
}

/** Ids are used as file names: anything but `[A-Za-z0-9._-]` becomes `_` (and no `..`). */
function safe(id: string): string {
  const s = id.replace(/[^A-Za-z0-9._-]/g, '_')
  return s === '' || s === '.' || s === '..' ? `_${s}` : s
}

export class TranscriptWriter {
  readonly path: string
  readonly #session: Session
  readonly #projector: ClaudeTranscriptProjector
  #next = 0
  #started = false

  constructor(path: string, session: Session, opts: TranscriptOptions) {
    this.path = path
    this.#session = session
    this.#projector = new ClaudeTranscriptProjector(opts)
  }

  /** Writes the lines for events appended since the last sync; throws on I/O errors (callers contain them). */
  sync(): void {
    // Only the new events; `events()` would copy the whole log on every sync.
    const session = this.#session
    const lines: string[] = []
    for (; this.#next < session.length; this.#next++) {
      for (const line of this.#projector.push(session.eventAt(this.#next)!)) lines.push(`${line}\n`)
    }
    if (!this.#started) {
      mkdirSync(dirname(this.path), { recursive: true })
      writeFileSync(this.path, lines.join(''))
      this.#started = true
    } else if (lines.length > 0) {
      appendFileSync(this.path, lines.join(''))
    }
  }
}
