// The errors @tack/session throws. One class with a `code` for everything a caller can get wrong when
// appending or storing events, so a caller switches on `code` instead of on classes.

export type SessionEventErrorCode =
  /** `data` (or a loaded event) is not lossless JSON (SL-2); `path` names the offending value. */
  | 'NOT_JSON'
  /** A log-only event carries `op`, a loaded surface event lacks it, or `op.kind` is unknown (SL-4). */
  | 'SURFACE_OP_MISMATCH'
  /** A `replace` names seqs that are not on the surface, or `fromSeq` comes after `toSeq` (SL-4). */
  | 'BAD_REPLACE'
  /** A `replace` range is not tool-pairing balanced before `fromSeq` and after `toSeq` (SL-13). */
  | 'UNBALANCED_REPLACE'
  /** A message-like event lacks a valid `source` (SL-8). */
  | 'MISSING_SOURCE'
  /** A core event's payload does not have the shape its projection reads (e.g. content not blocks). */
  | 'BAD_PAYLOAD'
  /** A seq asked about is not a current surface node, or an event is not a surface event (SL-12). */
  | 'NOT_ON_SURFACE'
  /** A header delta has no prior snapshot or does not apply to it (SL-15). */
  | 'HEADER_FOLD_ERROR'
  /** A batch (or loaded log) whose seqs do not continue the stored log (SL-26). */
  | 'SEQ_CONFLICT'
  /** `create` or `fork` named an id that already exists (SL-26). */
  | 'SESSION_EXISTS'
  /** No session has that id (SL-26). */
  | 'SESSION_NOT_FOUND'
  /** A fork cut that is out of range or falls inside an open turn (SL-22). */
  | 'BAD_FORK_POINT'
  /** An event type that is not a `noun/verb` name. */
  | 'UNKNOWN_EVENT'
  /** Another live process holds the session's writer lease; it cannot be opened for writing here. */
  | 'SESSION_BUSY'

export class SessionEventError extends Error {
  override readonly name = 'SessionEventError'
  readonly code: SessionEventErrorCode
  /** The JSON path of the offending value, for `NOT_JSON`. */
  readonly path?: string
  constructor(code: SessionEventErrorCode, message: string, opts: { path?: string; cause?: unknown } = {}) {
    super(`${code}: ${message}`, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.code = code
    if (opts.path !== undefined) this.path = opts.path
  }
}

/** A stored session whose `version` this build cannot read (SL-21); no migrations in v1. */
export class UnsupportedSessionFormatError extends Error {
  override readonly name = 'UnsupportedSessionFormatError'
  readonly version: unknown
  constructor(version: unknown, id?: string) {
    super(
      `session${id ? ` ${id}` : ''} has format version ${JSON.stringify(version) ?? String(version)}; ` +
        'this build reads only version 1',
    )
    this.version = version
  }
}

/** A broken log or request invariant, found by the checkers in `@tack/session/testing` (SL-19, SL-20). */
export class InvariantError extends Error {
  override readonly name = 'InvariantError'
  /** Which rule failed, e.g. `seq`, `enclosure`, `pairing`, `surface-op`, `request`. */
  readonly rule: string
  /** The seq of the event that broke the rule, when there is one. */
  readonly seq?: number
  constructor(rule: string, message: string, seq?: number) {
    super(seq === undefined ? `[${rule}] ${message}` : `[${rule}] seq ${seq}: ${message}`)
    this.rule = rule
    if (seq !== undefined) this.seq = seq
  }
}
