// The TUI's resume picker (80-cli.md §2 `tack -r`, `/resume`) on PostgreSQL (95-fleet.md F1): the same
// rows, from the same sessions, as on the SQLite file — the picker reads only the store's summaries.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Session, type SessionHeader, type SessionStore } from '@tack/session'
import { PostgresSessionStore } from '@tack/store-postgres'
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import { SqliteSessionStore } from '@tack/store-sqlite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { resumeChoices } from '../src/resume-picker.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

/** The same sessions in any store: another folder, one with no turn, a subagent's, a fork, a long prompt. */
async function fill(store: SessionStore): Promise<void> {
  let now = Date.UTC(2026, 0, 1)
  const add = async (
    id: string,
    cwd: string,
    prompt: string | undefined,
    extra: Partial<SessionHeader> = {},
  ) => {
    const header: SessionHeader = { version: 1, id, createdAt: new Date(now).toISOString(), cwd, ...extra }
    await store.create(header)
    const s = new Session({ header, clock: { now: () => now } })
    if (prompt !== undefined) {
      s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
      s.append('user/message', { content: [{ type: 'text', text: prompt }], source: { kind: 'user' } })
    }
    await store.append(id, s.events())
    now += 60_000
  }
  await add('a-old', '/w', '  fix the\n\n   login bug  ')
  await add('b-other', '/elsewhere', 'not mine')
  await add('c-empty', '/w', undefined)
  await add('d-sub', '/w', 'a subagent task', { parentSession: 'a-old' })
  await add('e-fork', '/w', 'forked', { parentSession: 'a-old', seedLength: 2 })
  await add('f-new', '/w', `${'ü'.repeat(150)}${'x'.repeat(150)}`)
}

test('the picker shows the same rows on PostgreSQL as on SQLite', async () => {
  const postgres = await PostgresSessionStore.open({ url: await cluster.createDatabase() })
  const sqlite = SqliteSessionStore.open({ path: join(mkdtempSync(join(tmpdir(), 'tack-picker-')), 's.db') })
  try {
    await fill(postgres)
    await fill(sqlite)
    const rows = await resumeChoices(postgres, '/w')
    expect(rows.map((r) => r.id)).toEqual(['f-new', 'e-fork', 'a-old'])
    expect(rows[2]).toMatchObject({ firstPrompt: 'fix the login bug', turns: 1 })
    expect(rows).toEqual(await resumeChoices(sqlite, '/w'))
    const short = { limit: 2, promptChars: 10 }
    expect(await resumeChoices(postgres, '/w', short)).toEqual(await resumeChoices(sqlite, '/w', short))
  } finally {
    await postgres.close()
    await sqlite.close()
  }
})
