// Invariant plugins for tests and `TACK_DEV=1`, exported as `@tack/agent/invariants` (no vitest): the
// structure checker on every session the service opens plus the agent status transitions (SL-20, AL-5),
// and the request invariant on `llm/stream` (SL-19). They live here, not in @tack/session, because they
// listen on seams this package declares; the log checks themselves are @tack/session's.
import type { Context } from '@tack/kernel'
import { isOneShotRequest, requestOriginOf } from '@tack/session'
import {
  checkRequestAgainstLog,
  InvariantError,
  installSessionStructureInvariant,
  reportInvariantViolation,
} from '@tack/session/invariants'
import type { AgentStatus, LlmRequest, LlmResponse } from '../types.ts'

export * from '@tack/session/invariants'

/** SL-20 legal agent status transitions (AL-5): idle ⇄ running, either → disposed, nothing after. */
export const STATUS_MOVES: Readonly<Record<AgentStatus, readonly AgentStatus[]>> = {
  idle: ['running', 'disposed'],
  running: ['idle', 'disposed'],
  disposed: [],
}

/**
 * Attaches the structure checker to every session `ctx.sessions` creates, opens or forks, and checks
 * every `agent/status` change (AL-5). A status is not logged, so an illegal change is reported as a
 * listener fault and also thrown from the next append to that agent's session.
 */
export function installStructureInvariant(ctx: Context): () => void {
  const statuses = new WeakMap<object, AgentStatus>()
  const offOpened = installSessionStructureInvariant(ctx)
  const offStatus = ctx.on('agent/status', (agent, status, previous) => {
    const known = statuses.get(agent) ?? 'idle'
    statuses.set(agent, status)
    let problem: string | undefined
    if (previous !== known)
      problem = `agent reported previous status ${previous}, but its last status was ${known}`
    else if (!STATUS_MOVES[previous]?.includes(status))
      problem = `illegal agent status change ${previous} → ${status}`
    if (!problem) return
    const error = new InvariantError('status', problem)
    reportInvariantViolation(agent.session, error)
    throw error
  })
  return () => {
    offOpened()
    offStatus()
  }
}

export interface RequestInvariant {
  /** Requests rebuilt and compared. */
  readonly checked: number
  /** Requests passed through because no origin session was registered for them. */
  readonly skipped: number
  dispose(): boolean
}

/**
 * Prepends an `llm/stream` listener that rebuilds each request from its origin session's log and
 * throws `InvariantError` on any difference before calling `next()`. Requests without a registered
 * origin pass unchecked unless `requireOrigin` is set; a request marked with `markOneShotRequest` (a
 * plugin's one-shot summarisation call) always passes unchecked.
 */
export function installRequestInvariant(
  ctx: Context,
  opts: { requireOrigin?: boolean } = {},
): RequestInvariant {
  let checked = 0
  let skipped = 0
  const listener = async (
    request: LlmRequest,
    _signal: AbortSignal,
    next: () => Promise<LlmResponse>,
  ): Promise<LlmResponse> => {
    const session = requestOriginOf(request)
    if (!session) {
      if (opts.requireOrigin && !isOneShotRequest(request))
        throw new InvariantError('request', 'llm/stream request has no registered origin session')
      skipped++
      return next()
    }
    checkRequestAgainstLog(request, session)
    checked++
    return next()
  }
  const dispose = ctx.on('llm/stream', listener, { prepend: true })
  return {
    get checked() {
      return checked
    },
    get skipped() {
      return skipped
    },
    dispose,
  }
}
