// The resume picker's rows (80-cli.md §2 `tack -r`, `/resume`) from a real SQLite store: this folder's
// sessions only, newest first, each with its first prompt on one line; subagents' sessions and sessions
// that never ran a turn left out.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Session, type SessionHeader } from '@tack/session'
import { SqliteSessionStore } from '@tack/store-sqlite'
import { afterEach, expect, test } from 'vitest'
import { resumeChoices } from '../src/resume-picker.ts'

const stores: SqliteSessionStore[] = []
afterEach(() => {
  for (const s of stores.splice(0)) s.close()
})

let now = Date.UTC(2026, 0, 1)
const clock = { now: () => now }

async function addSession(
  store: SqliteSessionStore,
  id: string,
  cwd: string,
  prompt: string | undefined,
  extra: Partial<SessionHeader> = {},
): Promise<void> {
  const header: SessionHeader = { version: 1, id, createdAt: new Date(now).toISOString(), cwd, ...extra }
  await store.create(header)
  const s = new Session({ header, clock })
  if (prompt !== undefined) {
    s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    s.append('user/message', { content: [{ type: 'text', text: prompt }], source: { kind: 'user' } })
  }
  await store.append(id, s.events())
  now += 60_000
}

test('this folder, newest first, first prompt on one line; subagent sessions, sessions with no turn and other folders left out', async () => {
  const store = SqliteSessionStore.open(
    { path: join(mkdtempSync(join(tmpdir(), 'tack-picker-')), 's.db') },
    { clock },
  )
  stores.push(store)
  await addSession(store, 'a-old', '/w', '  fix the\n\n   login bug  ')
  await addSession(store, 'b-other', '/elsewhere', 'not mine')
  await addSession(store, 'c-empty', '/w', undefined)
  await addSession(store, 'd-sub', '/w', 'a subagent task', { parentSession: 'a-old' })
  await addSession(store, 'e-fork', '/w', 'forked', { parentSession: 'a-old', seedLength: 2 })
  // words: a summary leaves out a token its 200-code-point cut goes through (cutPrompt), not these
  await addSession(store, 'f-new', '/w', 'word '.repeat(60))
  const rows = await resumeChoices(store, '/w')
  expect(rows.map((r) => r.id)).toEqual(['f-new', 'e-fork', 'a-old'])
  expect(rows[2]).toMatchObject({ firstPrompt: 'fix the login bug', turns: 1 })
  expect(Array.from(rows[0].firstPrompt)).toHaveLength(120)
  expect(rows[0].firstPrompt.endsWith('…')).toBe(true)
  expect(rows[0].time > rows[1].time).toBe(true)
  expect((await resumeChoices(store, '/w', { limit: 2, promptChars: 10 })).map((r) => r.firstPrompt)).toEqual(
    ['word word…', 'forked'],
  )
})

test('a store of thousands of sessions answers from its summaries', async () => {
  const store = SqliteSessionStore.open(
    { path: join(mkdtempSync(join(tmpdir(), 'tack-picker-')), 's.db') },
    { clock },
  )
  stores.push(store)
  for (let i = 0; i < 2000; i++)
    await addSession(store, `s-${String(i).padStart(4, '0')}`, i % 2 === 0 ? '/w' : '/v', `task ${i}`)
  const rows = await resumeChoices(store, '/w', { limit: 20 })
  expect(rows).toHaveLength(20)
  expect(rows[0]).toMatchObject({ id: 's-1998', firstPrompt: 'task 1998' })
  expect(rows.at(-1)?.id).toBe('s-1960')
})
