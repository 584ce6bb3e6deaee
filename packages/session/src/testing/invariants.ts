// Invariant plugins for tests and `TACK_DEV=1`: the structure checker on every session the service
// opens (SL-20), and the request invariant on `llm/stream` (SL-19).
import type { Context } from '@tack/kernel'
import { InvariantError } from '../errors.ts'
import type { EpochHeader, LlmCallConfig, Message, SessionEvent, ToolSchema } from '../events.ts'
import { foldRequestHeader } from '../header.ts'
import { requestOriginOf } from '../origin.ts'
import { Session } from '../session.ts'
import { firstDifference } from './diff.ts'
import { createStructureChecker } from './structure.ts'

/** Whether dev-mode invariants are requested (`TACK_DEV=1`); the CLI installs both checkers then. */
export function devInvariantsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TACK_DEV === '1'
}

/**
 * Checks `session`'s existing log, then every later append; a broken rule throws `InvariantError`
 * out of that `append` (a broken loaded log throws from the first append). Returns the unsubscriber.
 */
export function attachStructureInvariant(session: Session): () => void {
  const checker = createStructureChecker()
  let pending: unknown
  try {
    for (const event of session.events()) checker.check(event)
  } catch (error) {
    pending = error
  }
  return session.subscribe((event) => {
    if (pending !== undefined) {
      const error = pending
      pending = undefined
      throw error
    }
    checker.check(event)
  })
}

/** Attaches the structure checker to every session `ctx.sessions` creates, opens or forks. */
export function installStructureInvariant(ctx: Context): () => boolean {
  return ctx.on('session/opened', (session) => {
    attachStructureInvariant(session)
  })
}

/** The request shape this package can check without importing @tack/agent (which depends on it). */
interface RequestLike {
  readonly config?: LlmCallConfig
  readonly system?: string
  readonly tools?: readonly ToolSchema[]
  readonly messages?: readonly Message[]
}

type StreamListener = (
  request: RequestLike,
  signal: AbortSignal,
  next: () => Promise<unknown>,
) => Promise<unknown>

/** `llm/stream` is declared by @tack/agent, which depends on this package, so it is registered untyped. */
interface UntypedEvents {
  on(name: 'llm/stream', listener: StreamListener, options: { prepend: boolean }): () => boolean
}

export interface RequestInvariant {
  /** Requests rebuilt and compared. */
  readonly checked: number
  /** Requests passed through because no origin session was registered for them. */
  readonly skipped: number
  dispose(): boolean
}

/**
 * The rebuilt request for `session`'s log (SL-18): the header in force now, and the session prefix
 * followed by the derivation of the log before the last `step/start`.
 */
export function rebuildRequest(session: Session): { header: EpochHeader; messages: Message[] } {
  const events = session.events()
  let boundary = events.length - 1
  while (boundary >= 0 && events[boundary].type !== 'step/start') boundary--
  if (boundary < 0) throw new InvariantError('request', 'no step/start in the log before this request')
  const header = foldRequestHeader(events)
  if (!header) throw new InvariantError('request', 'no request header was recorded before this request')
  const prefixLog: readonly SessionEvent[] = events.slice(0, boundary)
  const fresh = new Session({ header: session.header, events: prefixLog })
  return { header, messages: [...(header.messagePrefix ?? []), ...fresh.deriveMessages()] }
}

/** Throws `InvariantError` naming the first difference between `request` and its rebuild from `session`. */
export function checkRequestAgainstLog(request: RequestLike, session: Session): void {
  const { header, messages } = rebuildRequest(session)
  const parts: Array<[string, unknown, unknown]> = [
    ['config', header.config, request.config],
    ['system', header.system, request.system],
    ['tools', header.tools, request.tools],
    ['messages', messages, request.messages],
  ]
  for (const [name, expected, actual] of parts) {
    const difference = firstDifference(expected, actual, name)
    if (difference) {
      throw new InvariantError(
        'request',
        `session ${session.id}: the request differs from its rebuild from the log at ${difference}`,
      )
    }
  }
}

/**
 * Prepends an `llm/stream` listener that rebuilds each request from its origin session's log and
 * throws `InvariantError` on any difference before calling `next()`. Requests without a registered
 * origin (e.g. a plugin's one-shot summarisation call) pass unchecked unless `requireOrigin` is set.
 */
export function installRequestInvariant(
  ctx: Context,
  opts: { requireOrigin?: boolean } = {},
): RequestInvariant {
  let checked = 0
  let skipped = 0
  const listener: StreamListener = async (request, _signal, next) => {
    const session = requestOriginOf(request)
    if (!session) {
      if (opts.requireOrigin)
        throw new InvariantError('request', 'llm/stream request has no registered origin session')
      skipped++
      return next()
    }
    checkRequestAgainstLog(request, session)
    checked++
    return next()
  }
  const dispose = (ctx as unknown as UntypedEvents).on('llm/stream', listener, { prepend: true })
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
