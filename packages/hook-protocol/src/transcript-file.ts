// A session's log mirrored into a JSONL file that hooks read through `transcript_path` (40-hooks.md
// B9; the Codex bridge's rollout export likewise). Each bridge supplies the projector that turns log
// events into its host's lines; this keeps the file in step: before a hook is spawned, the lines for
// what the log has gained since the last sync are appended, synchronously, so the hook reads an
// up-to-date file. The first sync in a process rewrites the file from the start (the log is the truth;
// a resumed session's old file is replaced, never appended to twice).
import { dirname } from 'node:path'
import { privateFolder, writePrivateFile } from '@tack/kernel/private-files'
import type { Session, SessionEvent } from '@tack/session'

/** Turns log events into a host's transcript lines (compact JSON, no newline), one event at a time. */
export interface TranscriptProjector {
  /** Lines that open the file before any event's (Codex's `session_meta`); none when absent. */
  start?(): readonly string[]
  push(event: SessionEvent): readonly string[]
}

/** Ids are used as file names: anything but `[A-Za-z0-9._-]` becomes `_` (and no `.` or `..`). */
export function safeFileName(id: string): string {
  const s = id.replace(/[^A-Za-z0-9._-]/g, '_')
  return s === '' || s === '.' || s === '..' ? `_${s}` : s
}

export class TranscriptFile {
  readonly path: string
  readonly #session: Session
  readonly #projector: TranscriptProjector
  #next = 0
  #started = false

  constructor(path: string, session: Session, projector: TranscriptProjector) {
    this.path = path
    this.#session = session
    this.#projector = projector
  }

  /** Writes the lines for events appended since the last sync; throws on I/O errors (callers contain them). */
  sync(): void {
    // Only the new events: `events()` would copy the whole log on every sync (docs/decisions/0066-flat-memory.md).
    const session = this.#session
    const lines: string[] = this.#started ? [] : (this.#projector.start?.() ?? []).map((l) => `${l}\n`)
    for (; this.#next < session.length; this.#next++) {
      const event = session.eventAt(this.#next)
      if (event) for (const line of this.#projector.push(event)) lines.push(`${line}\n`)
    }
    // The conversation: owner-only, whatever the umask (docs/decisions/0145-private-files.md).
    if (!this.#started) {
      privateFolder(dirname(this.path))
      writePrivateFile(this.path, lines.join(''))
      this.#started = true
    } else if (lines.length > 0) {
      writePrivateFile(this.path, lines.join(''), { append: true })
    }
  }
}
