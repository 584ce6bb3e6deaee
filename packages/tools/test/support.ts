// Shared helpers for this package's tests: a real cordis Context with the registry, a real Session
// to receive the pipeline's log-only events, and a capture of the `tools` logger.
import { stubAgent } from '../src/testing/index.ts'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ToolAgent } from '../src/index.ts'
import type { Session, SessionEvent } from '@tack/session'
import { memorySession } from '@tack/session/testing'
import type { Context } from 'cordis'
import type { ToolCallRequest } from '../src/index.ts'

export { createToolsContext } from '../src/testing/index.ts'

export const tempDir = (): Promise<string> => mkdtemp(join(tmpdir(), 'tack-tools-'))

/** A real, in-memory Session. */
export function newSession(cwd = tmpdir()): Session {
  return memorySession(cwd)
}

/** The agent a call carries (see stubAgent). */
export function agentWith(session: Session): ToolAgent {
  return stubAgent(session)
}

let calls = 0

/** A call as the loop makes it: raw argument text, arguments not yet validated. */
export function call(
  name: string,
  args: unknown = {},
  extra: Partial<ToolCallRequest> = {},
): ToolCallRequest {
  return {
    callId: `call_${++calls}`,
    name,
    rawArguments: typeof args === 'string' ? args : JSON.stringify(args),
    cwd: tmpdir(),
    signal: new AbortController().signal,
    ...extra,
  }
}

/** The types and payloads of a session's events, for order assertions. */
export const eventsOf = (session: Session): Array<Pick<SessionEvent, 'type' | 'data'>> =>
  session.events().map(({ type, data }) => ({ type, data }))

export interface CapturedLog {
  readonly type: string
  readonly name: string
  readonly text: string
}

/** Captures log messages of `ctx`'s logger service, with `%s`-style arguments substituted. */
export function captureLogs(ctx: Context): CapturedLog[] {
  const logs: CapturedLog[] = []
  ctx.logger.exporter({
    export(message) {
      const [format, ...args] = message.args
      let i = 0
      const text = String(format).replace(/%[sdo]/g, () => String(args[i++]))
      logs.push({ type: message.type, name: message.name, text })
    },
  })
  return logs
}

/** The error `fn` throws, which must be a `type`: another error is rethrown, no error fails the test. */
export function thrownBy<E extends Error>(type: abstract new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn()
  } catch (error) {
    if (error instanceof type) return error
    throw error
  }
  throw new Error(`expected ${type.name}`)
}
