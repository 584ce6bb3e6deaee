// Invariant plugins for tests and `TACK_DEV=1`: the structure checker on every session the service
// opens (SL-20), and the request invariant on `llm/stream` (SL-19).
import type { Context } from '@tack/kernel'
import { InvariantError } from '../errors.ts'
import type { EpochHeader, LlmCallConfig, Message, SessionEvent, ToolSchema } from '../events.ts'
import { foldRequestHeader } from '../request-header.ts'
import { requestOriginOf } from '../origin.ts'
import { Session } from '../session.ts'
import { firstDifference } from './diff.ts'
import { createStructureChecker } from './structure.ts'

/** Whether dev-mode invariants are requested (`TACK_DEV=1`); the CLI installs both checkers then. */
export function devInvariantsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TACK_DEV === '1'
}

/** Violations found outside an append (agent status), thrown from the session's next append. */
const queued = new WeakMap<Session, unknown[]>()

/**
 * Checks `session`'s existing log, then every later append; a broken rule throws `InvariantError`
 * out of that `append` (a broken loaded log, or a queued status violation, throws from the next one).
 * Returns the unsubscriber.
 */
export function attachStructureInvariant(session: Session): () => void {
  const checker = createStructureChecker()
  try {
    for (const event of session.events()) checker.check(event)
  } catch (error) {
    queue(session, error)
  }
  return session.subscribe((event) => {
    const pending = queued.get(session)
    if (pending?.length) throw pending.shift()
    checker.check(event)
  })
}

function queue(session: Session, error: unknown): void {
  const list = queued.get(session) ?? []
  list.push(error)
  queued.set(session, list)
}

type AgentStatus = 'idle' | 'running' | 'disposed'
/** SL-20 legal agent status transitions (AL-5): idle ⇄ running, either → disposed, nothing after. */
const STATUS_MOVES: Record<AgentStatus, readonly AgentStatus[]> = {
  idle: ['running', 'disposed'],
  running: ['idle', 'disposed'],
  disposed: [],
}
type StatusListener = (
  agent: { readonly session?: unknown },
  status: AgentStatus,
  previous: AgentStatus,
) => void
/** `agent/status` is declared by @tack/agent, which depends on this package, so it is registered untyped. */
interface UntypedStatusEvents {
  on(name: 'agent/status', listener: StatusListener): () => boolean
}

/**
 * Attaches the structure checker to every session `ctx.sessions` creates, opens or forks, and checks
 * every `agent/status` change (AL-5). A status is not logged, so an illegal change is reported as a
 * listener fault and also thrown from the next append to that agent's session.
 */
export function installStructureInvariant(ctx: Context): () => void {
  const statuses = new WeakMap<object, AgentStatus>()
  const offOpened = ctx.on('session/opened', (session) => {
    attachStructureInvariant(session)
  })
  const offStatus = (ctx as unknown as UntypedStatusEvents).on('agent/status', (agent, status, previous) => {
    const known = statuses.get(agent) ?? 'idle'
    statuses.set(agent, status)
    let problem: string | undefined
    if (previous !== known)
      problem = `agent reported previous status ${previous}, but its last status was ${known}`
    else if (!STATUS_MOVES[previous]?.includes(status))
      problem = `illegal agent status change ${previous} → ${status}`
    if (!problem) return
    const error = new InvariantError('status', problem)
    if (agent.session instanceof Session) queue(agent.session, error)
    throw error
  })
  return () => {
    offOpened()
    offStatus()
  }
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
