// A subagent's own calls reach its card (docs/decisions/0310-failures-stay-visible.md): the parent's log
// holds only the `subagent` call and its result, so the screen follows each child session through the
// `subagent/start` and `subagent/end` seams (declared by @tack/subagent) and hands its events to the view
// model, which lists them on the card of the call that started it. A nested subagent's calls are listed
// on the same top-level card: the screen has no card for the middle one.
import type { SessionEvent } from '@tack/session'
import type { Context } from 'cordis'

/** What the seams pass (structurally @tack/subagent's Agent and start info; a type import would tie this package to it). */
interface SessionOwner {
  readonly session: { subscribe(listener: (event: SessionEvent) => void): () => void }
}
type StartListener = (parent: SessionOwner, child: SessionOwner, info: { callId: string }) => void
type EndListener = (parent: SessionOwner, child: SessionOwner) => void

/** The seam methods used here, typed without @tack/subagent's declaration merge. */
interface SubagentSeams {
  on(name: 'subagent/start', listener: StartListener): () => void
  on(name: 'subagent/end', listener: EndListener): () => void
}

/**
 * Follows the subagents `root`'s session starts (and theirs) until each ends, calling `onChild` with the
 * top-level call id and each child event. Returns the function that stops following.
 */
export function followSubagents(
  ctx: Context,
  root: SessionOwner['session'],
  onChild: (callId: string, event: SessionEvent) => void,
): () => void {
  const seams = ctx as unknown as SubagentSeams
  /** Followed sessions → the top-level call whose card lists their calls. */
  const cardOf = new Map<SessionOwner['session'], string | undefined>([[root, undefined]])
  const stops = new Map<SessionOwner['session'], () => void>()
  const offStart = seams.on('subagent/start', (parent, child, info) => {
    if (!cardOf.has(parent.session)) return
    const callId = cardOf.get(parent.session) ?? info.callId
    cardOf.set(child.session, callId)
    stops.set(
      child.session,
      child.session.subscribe((event) => onChild(callId, event)),
    )
  })
  const offEnd = seams.on('subagent/end', (_parent, child) => {
    stops.get(child.session)?.()
    stops.delete(child.session)
    cardOf.delete(child.session)
  })
  return () => {
    offStart()
    offEnd()
    for (const stop of stops.values()) stop()
    stops.clear()
  }
}
