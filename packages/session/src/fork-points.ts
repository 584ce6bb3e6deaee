// Where a session can be forked (`tack sessions fork --at SEQ`, SL-22): at a turn's start or at the end
// of a log that is not inside a turn. A refused point names these, so the person does not have to read
// `tack sessions show` to find one.
import type { SessionEvent } from './events.ts'
import { openTurnAt } from './recover.ts'

/** One place a fork may cut: before `turn` (the seq of its `turn/start`), or the end of the log. */
export interface ForkPoint {
  seq: number
  /** The turn that starts at `seq`; absent for the end of the log. */
  turn?: number
}

/** The turn starts and (when no turn is open there) the end, in log order. */
export function forkPoints(events: readonly SessionEvent[]): ForkPoint[] {
  const points: ForkPoint[] = []
  for (const e of events)
    if (e.type === 'turn/start')
      points.push({ seq: e.seq, turn: (e as SessionEvent<'turn/start'>).data.turn })
  if (!openTurnAt(events, events.length)) points.push({ seq: events.length })
  return points
}

/** How many points a refusal lists before it says how many more there are. */
const LISTED = 12

/** "0 (before turn 1), 11 (before turn 2), 22 (the end)": the points nearest `atSeq` first when many. */
export function describeForkPoints(points: readonly ForkPoint[], atSeq: number): string {
  if (points.length === 0) return 'none (the whole log is one open turn)'
  const nearest =
    points.length <= LISTED
      ? points
      : [...points]
          .sort((a, b) => Math.abs(a.seq - atSeq) - Math.abs(b.seq - atSeq))
          .slice(0, LISTED)
          .sort((a, b) => a.seq - b.seq)
  const text = nearest
    .map((p) => `${p.seq} (${p.turn !== undefined ? `before turn ${p.turn}` : 'the end'})`)
    .join(', ')
  return points.length > nearest.length ? `${text} (the ${LISTED} nearest of ${points.length})` : text
}
