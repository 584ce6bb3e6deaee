// Events to and from rows: canonical JSON copies going in (so a stored event never follows later
// changes to the caller's objects), column arrays for one multi-row insert, and stored text parsed
// back with an error that names the database and the session when someone damaged it.
import { checkJson, type SessionEvent, SessionEventError } from '@tack/session'

/** A canonical JSON copy (SL-2), or `NOT_JSON` naming the offending path. */
export function jsonCopy(value: unknown, what: string): unknown {
  const r = checkJson(value)
  if (!r.ok)
    throw new SessionEventError('NOT_JSON', `${what}${r.path} is ${r.reason}`, { path: `${what}${r.path}` })
  return r.value
}

/** The batch as five column arrays (seq, type, time, data, op) for `unnest`. */
export function toRows(
  events: readonly SessionEvent[],
): [number[], string[], string[], string[], Array<string | null>] {
  const seqs: number[] = []
  const types: string[] = []
  const times: string[] = []
  const data: string[] = []
  const ops: Array<string | null> = []
  for (let i = 0; i < events.length; i++) {
    const event = jsonCopy(events[i], `/${i}`) as SessionEvent
    if (typeof event.type !== 'string')
      throw new SessionEventError('UNKNOWN_EVENT', `seq ${event.seq}: the event type is not a string`)
    if (typeof event.time !== 'string')
      throw new TypeError(`seq ${event.seq}: the event time is not a string`)
    // Stored as text columns, which hold no NUL (the payloads are JSON, where it is an escape).
    if (event.type.includes('\u0000') || event.time.includes('\u0000'))
      throw new SessionEventError(
        'NOT_JSON',
        `seq ${event.seq}: the event's type or time holds a NUL character (\\u0000)`,
        { path: `/${i}` },
      )
    seqs.push(event.seq)
    types.push(event.type)
    times.push(event.time)
    data.push(JSON.stringify(event.data))
    ops.push(event.op === undefined ? null : JSON.stringify(event.op))
  }
  return [seqs, types, times, data, ops]
}

/** A stored JSON value; `NOT_JSON` naming the database, the session, the value and what to do. */
export function parseStored(text: string, where: string, id: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new SessionEventError(
      'NOT_JSON',
      `${where}: session ${id}, ${what}, is not valid JSON (the row was changed outside tack); tack ` +
        `left it unchanged. Restore it from a backup, or delete that session with \`tack sessions rm ${id}\``,
      { cause: error },
    )
  }
}
