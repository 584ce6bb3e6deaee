// Session identity (R16). Each source is validated before it may name a file; an invalid one is
// skipped in favour of the next source.
import { basename } from 'node:path'
import { isValidSessionId } from '../core/validate.ts'
import type { HostEnvironment } from './env.ts'

/** First 12 hex digits of md5(`PWD` or the cwd): the fallback identity of a project folder. */
export function projectHash(e: HostEnvironment): string {
  // Loaded on demand: hooks usually have a session id, and crypto is not free to load.
  const { createHash } = process.getBuiltinModule('node:crypto')
  return createHash('md5')
    .update(e.env.PWD || e.cwd)
    .digest('hex')
    .slice(0, 12)
}

/** `AGENT_DICE_SESSION_ID`, else its alias `CC_DICE_SESSION_ID` (the first valid one). */
export function envSessionId(e: HostEnvironment): string | undefined {
  for (const key of ['AGENT_DICE_SESSION_ID', 'CC_DICE_SESSION_ID']) {
    const value = e.env[key]
    if (value && isValidSessionId(value)) return value
  }
  return undefined
}

/** The session id a transcript is named after (`<id>.jsonl`), when valid. */
export function sessionFromTranscriptPath(path: string): string | undefined {
  const name = basename(path)
  if (!name.endsWith('.jsonl')) return undefined
  const id = name.slice(0, -'.jsonl'.length)
  return isValidSessionId(id) ? id : undefined
}

/** A value from a hook's stdin, when it is a valid session id. */
export function validId(value: unknown): string | undefined {
  return isValidSessionId(value) ? value : undefined
}
