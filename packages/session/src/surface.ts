// The surface: the model-visible nodes of a log after folding every `append` and `replace` (SL-4),
// with the per-cut tool-pairing balance (SL-12) and a seq → position index. Appends cost O(1); a
// replace splices and re-indexes from the first replaced position (compaction-rare).
import { SessionEventError } from './errors.ts'
import type { SessionEvent, SessionEventType, SurfaceOp } from './events.ts'
import { isSurfaceType } from './events.ts'
import { balanceStep } from './messages.ts'

/** What folding one surface node did: appended at the end, or replaced `count` nodes at `at`. */
export type SurfaceChange = { kind: 'append' } | { kind: 'replace'; at: number; count: number }

export class SurfaceTracker {
  readonly nodes: SessionEvent[] = []
  /** `balance[i]` is the number of open tool calls at cut i (before node i); length nodes + 1. */
  readonly balance: number[] = [0]
  /** Bumped by every folded replace (and by the owner's invalidate). */
  generation = 0
  readonly #position = new Map<number, number>()

  /** Position of `seq` on the surface, or undefined. */
  positionOf(seq: number): number | undefined {
    return this.#position.get(seq)
  }

  /**
   * Validates the op of a would-be event of `type` against the current surface and returns its
   * canonical copy (a surface event without `op` is an append). Throws before anything changes.
   */
  check(type: SessionEventType, op: unknown): SurfaceOp | undefined {
    if (!isSurfaceType(type)) {
      if (op !== undefined)
        throw new SessionEventError('SURFACE_OP_MISMATCH', `log-only event ${type} must not carry op`)
      return undefined
    }
    if (op === undefined) return { kind: 'append' }
    const o = op as { kind?: unknown; fromSeq?: unknown; toSeq?: unknown }
    if (o === null || typeof o !== 'object' || (o.kind !== 'append' && o.kind !== 'replace')) {
      throw new SessionEventError(
        'SURFACE_OP_MISMATCH',
        `op of ${type} must be {kind: 'append'} or {kind: 'replace', …}`,
      )
    }
    if (o.kind === 'append') return { kind: 'append' }
    const { fromSeq, toSeq } = o
    if (!Number.isInteger(fromSeq) || !Number.isInteger(toSeq)) {
      throw new SessionEventError('BAD_REPLACE', 'replace needs integer fromSeq and toSeq')
    }
    const from = this.#position.get(fromSeq as number)
    const to = this.#position.get(toSeq as number)
    if (from === undefined || to === undefined) {
      const missing = from === undefined ? fromSeq : toSeq
      throw new SessionEventError('BAD_REPLACE', `replace names seq ${missing}, which is not on the surface`)
    }
    if (from > to)
      throw new SessionEventError('BAD_REPLACE', `replace fromSeq ${fromSeq} comes after toSeq ${toSeq}`)
    if (this.balance[from] !== 0 || this.balance[to + 1] !== 0) {
      throw new SessionEventError(
        'UNBALANCED_REPLACE',
        `replace ${fromSeq}..${toSeq} would separate tool calls from their results ` +
          `(open calls before: ${this.balance[from]}, after: ${this.balance[to + 1]})`,
      )
    }
    return { kind: 'replace', fromSeq: fromSeq as number, toSeq: toSeq as number }
  }

  /** Folds an event whose op `check` accepted. Log-only events change nothing. */
  add(event: SessionEvent): SurfaceChange | undefined {
    const op = event.op
    if (!op) return undefined
    if (op.kind === 'append') {
      this.#position.set(event.seq, this.nodes.length)
      this.nodes.push(event)
      this.balance.push(this.balance[this.balance.length - 1] + balanceStep(event))
      return op
    }
    const at = this.#position.get(op.fromSeq)!
    const count = this.#position.get(op.toSeq)! - at + 1
    for (const removed of this.nodes.splice(at, count, event)) this.#position.delete(removed.seq)
    this.balance.length = at + 1
    for (let i = at; i < this.nodes.length; i++) {
      this.#position.set(this.nodes[i].seq, i)
      this.balance.push(this.balance[i] + balanceStep(this.nodes[i]))
    }
    this.generation++
    return { kind: 'replace', at, count }
  }
}

/** The surface nodes of any log prefix (pure; throws like `append` on an illegal op). */
export function surfaceOf(events: readonly SessionEvent[]): SessionEvent[] {
  const tracker = new SurfaceTracker()
  for (const event of events) {
    tracker.check(event.type, event.op)
    if (isSurfaceType(event.type) && event.op === undefined) {
      throw new SessionEventError(
        'SURFACE_OP_MISMATCH',
        `surface event ${event.type} at seq ${event.seq} has no op`,
      )
    }
    tracker.add(event)
  }
  return tracker.nodes.slice()
}
