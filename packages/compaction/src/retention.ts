// CP-3: which part of the surface is kept word for word. Walk from the tail towards the head while the
// kept nodes fit in `retainTokens`, then move the cut earlier until no tool call is separated from its
// result (SL-12, SL-13). Everything before the cut is summarised.
import type { Session } from '@tack/session'
import { messageChars, tokensOf } from './pressure.ts'

export interface CompactionPlan {
  /** First and last seq of the summarised surface run. */
  readonly fromSeq: number
  readonly toSeq: number
  /** Surface nodes summarised and kept. */
  readonly summarised: number
  readonly retained: number
}

/** The plan for `session`'s current surface, or undefined when nothing before the kept tail is left. */
export function planCompaction(
  session: Session,
  retainTokens: number,
  charsPerToken: number,
): CompactionPlan | undefined {
  const surface = session.surface()
  const messages = session.deriveMessages()
  let cut = surface.length
  let kept = 0
  while (cut > 0) {
    const size = tokensOf(messageChars(messages[cut - 1]), charsPerToken)
    if (kept + size > retainTokens) break
    kept += size
    cut--
  }
  // A cut is legal where no call is waiting for its result (the end of the surface is one while idle or
  // between steps, so `cut === surface.length` needs no check).
  while (cut > 0 && cut < surface.length && !session.toolPairingBalancedBefore(surface[cut].seq)) cut--
  if (cut === 0) return undefined
  // Summarising nothing but an earlier summary would only rewrite it.
  if (cut === 1 && isSummary(surface[0].data)) return undefined
  return {
    fromSeq: surface[0].seq,
    toSeq: surface[cut - 1].seq,
    summarised: cut,
    retained: surface.length - cut,
  }
}

function isSummary(data: unknown): boolean {
  const source = (data as { source?: { kind?: string; name?: string } }).source
  return source?.kind === 'plugin' && source.name === 'compaction'
}
