// What every crash test asks of a session after a kill (SL-20, SL-25): loaded through a store (which
// recovers a log that ends inside a turn), the log is well-formed and closed, derives its messages, and
// the recovery was durable — loading again appends nothing.
import { expect } from 'vitest'
import type { SessionEvent, SessionHeader } from '../events.ts'
import { openTurnAt } from '../recover.ts'
import { Session } from '../session.ts'
import type { SessionStore } from '../store.ts'
import { checkLogStructure } from './structure.ts'

/** Loads session `id` from `store`, checks it as above and returns what was loaded. */
export async function expectRecoveredSession(
  store: Pick<SessionStore, 'load'>,
  id: string,
): Promise<{ header: SessionHeader; events: readonly SessionEvent[] }> {
  const { header, events } = await store.load(id)
  checkLogStructure(events)
  expect(openTurnAt(events, events.length)).toBe(false)
  const session = new Session({ header, events })
  expect(session.inProgressToolCalls).toBe(0)
  session.deriveMessages()
  expect((await store.load(id)).events.length).toBe(events.length)
  return { header, events }
}
