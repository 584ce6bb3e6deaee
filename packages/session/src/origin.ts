// Which session a model request was built from. The agent loop registers each request it sends to
// `llm/stream`, so the request invariant (SL-19) can rebuild it from that session's log.
import type { Session } from './session.ts'

const origins = new WeakMap<object, Session>()

/** Records that `request` was built from `session`'s log (held weakly; no leak). */
export function registerRequestOrigin(request: object, session: Session): void {
  origins.set(request, session)
}

/** The session `request` was built from, if the loop registered it. */
export function requestOriginOf(request: object): Session | undefined {
  return origins.get(request)
}

const oneShots = new WeakSet<object>()

/**
 * Records that `request` is a plugin's one-shot call built from no session's surface (a compaction
 * summary): the request invariant lets it pass even where every loop request must carry an origin.
 */
export function markOneShotRequest(request: object): void {
  oneShots.add(request)
}

export function isOneShotRequest(request: object): boolean {
  return oneShots.has(request)
}
