// Invariant checkers for tests and `TACK_DEV=1`: the structure checker on every session the service
// opens (SL-20), and the rebuild of a request from its session's log (SL-19). What listens on the
// agent's seams (`llm/stream`, `agent/status`) is in `@tack/agent/invariants`, which builds on these.
import type { Context } from '@tack/kernel'
import { InvariantError } from '../errors.ts'
import type { EpochHeader, LlmCallConfig, Message, SessionEvent, ToolSchema } from '../events.ts'
import { foldRequestHeader } from '../request-header.ts'
import { Session } from '../session.ts'
import { firstDifference } from './diff.ts'
import { createStructureChecker } from './structure.ts'

/** Whether dev-mode invariants are requested (`TACK_DEV=1`); the CLI installs both checkers then. */
export function devInvariantsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TACK_DEV === '1'
}

/** Violations found outside an append (e.g. an agent status change), thrown from the session's next append. */
const queued = new WeakMap<Session, unknown[]>()

/**
 * Checks `session`'s existing log, then every later append; a broken rule throws `InvariantError`
 * out of that `append` (a broken loaded log, or a violation reported for it, throws from the next one).
 * Returns the unsubscriber.
 */
export function attachStructureInvariant(session: Session): () => void {
  const checker = createStructureChecker()
  try {
    for (const event of session.events()) checker.check(event)
  } catch (error) {
    reportInvariantViolation(session, error)
  }
  return session.subscribe((event) => {
    const pending = queued.get(session)
    if (pending?.length) throw pending.shift()
    checker.check(event)
  })
}

/**
 * Queues `error` to be thrown from `session`'s next append, for a violation found outside an append —
 * `@tack/agent`'s status checker reports an illegal agent status change this way (a status is not logged).
 * Takes effect on sessions under `attachStructureInvariant`.
 */
export function reportInvariantViolation(session: Session, error: unknown): void {
  const list = queued.get(session) ?? []
  list.push(error)
  queued.set(session, list)
}

/**
 * Attaches the structure checker to every session `ctx.sessions` creates, opens or forks (SL-20).
 * `@tack/agent/invariants`' `installStructureInvariant` adds the agent status checks on top.
 */
export function installSessionStructureInvariant(ctx: Context): () => boolean {
  return ctx.on('session/opened', (session) => {
    attachStructureInvariant(session)
  })
}

/**
 * The request shape this package can check: `@tack/agent`'s `LlmRequest`, which this package cannot
 * import (the agent depends on it). The `llm/stream` listener that checks each request is in
 * `@tack/agent/invariants`.
 */
export interface RequestLike {
  readonly config?: LlmCallConfig
  readonly system?: string
  readonly tools?: readonly ToolSchema[]
  readonly messages?: readonly Message[]
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
