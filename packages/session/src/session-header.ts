// The session header — the log's first record (id, cwd, format version), not a request header
// (`request-header.ts`). Its format version (SL-21): v1 is the only format; there are no migrations.
import { UnsupportedSessionFormatError } from './errors.ts'
import { SESSION_FORMAT_VERSION, type SessionHeader } from './events.ts'

/** Throws `UnsupportedSessionFormatError` unless `h.version` is 1, and `TypeError` for a malformed header. */
export function validateSessionHeader(h: SessionHeader): void {
  if (h === null || typeof h !== 'object') throw new TypeError('session header must be an object')
  if (h.version !== SESSION_FORMAT_VERSION) throw new UnsupportedSessionFormatError(h.version, h.id)
  for (const key of ['id', 'createdAt', 'cwd'] as const) {
    if (typeof h[key] !== 'string' || h[key] === '')
      throw new TypeError(`session header ${key} must be a non-empty string`)
  }
}
