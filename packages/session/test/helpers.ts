// Shared builders for @tack/session tests: a fixed clock, headers and well-formed turn fragments.
import {
  type Clock,
  type TextBlock,
  Session,
  type SessionEvent,
  SessionEventError,
  type SessionHeader,
} from '../src/index.ts'

export const fixedClock: Clock = { now: () => Date.UTC(2025, 4, 6, 7, 8, 9, 10) }

export function header(id = 'sess-1'): SessionHeader {
  return { version: 1, id, createdAt: '2025-05-06T07:08:09.010Z', cwd: '/work/project' }
}

export function newSession(id = 'sess-1'): Session {
  return new Session({ header: header(id), clock: fixedClock })
}

export const text = (t: string): TextBlock[] => [{ type: 'text', text: t }]
export const user = { kind: 'user' } as const
export const plugin = (name: string) => ({ kind: 'plugin', name }) as const

/** The `code` of the SessionEventError `fn` throws (fails the test if it throws anything else). */
export function codeOf(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    if (error instanceof SessionEventError) return error.code
    throw error
  }
  throw new Error('expected a SessionEventError')
}

/** The `reason` of a header snapshot event (fails when `event` is not one). */
export function reasonOf(event: SessionEvent | undefined): string {
  if (event?.type !== 'request/header') throw new Error(`expected a request/header event, got ${event?.type}`)
  return (event as SessionEvent<'request/header'>).data.reason
}

export function startTurn(s: Session, turn = 1): void {
  s.append('turn/start', { turn, trigger: { kind: 'message' } })
}

export function startStep(s: Session, turn = 1, step = 1): void {
  s.append('step/start', { turn, step })
}

/** An assistant message in the open step with the given tool calls (ids and names). */
export function assistantCalls(s: Session, calls: Array<[string, string]>, turn = 1, step = 1) {
  return s.append('assistant/message', {
    turn,
    step,
    content: calls.map(([callId, name]) => ({ type: 'tool-call' as const, callId, name, arguments: '{}' })),
    finishReason: 'tool-calls',
  })
}

export function result(s: Session, callId: string, name = 'read') {
  return s.append('tool/result', { callId, name, content: text(`result of ${callId}`), isError: false })
}
