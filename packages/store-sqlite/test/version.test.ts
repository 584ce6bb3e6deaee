import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, test } from 'vitest'
import { SQLITE_LAYOUT_VERSION, SqliteSessionStore, SqliteStoreError } from '../src/index.ts'
import { tempDb } from './helpers.ts'

const open: Array<{ close(): unknown }> = []
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close()
})

function refusal(path: string): SqliteStoreError {
  try {
    open.push(SqliteSessionStore.open({ path }))
  } catch (error) {
    expect(error).toBeInstanceOf(SqliteStoreError)
    return error as SqliteStoreError
  }
  throw new Error('expected open to fail')
}

/** The folder's files and their bytes: what "left untouched" compares. */
function snapshot(path: string): Record<string, string> {
  const dir = dirname(path)
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(`${dir}/${f}`).toString('base64')]))
}

describe('layout version (SL-29)', () => {
  test('SL-29 SQLITE_LAYOUT_VERSION is 1 and a fresh file gets the tables and the version', () => {
    expect(SQLITE_LAYOUT_VERSION).toBe(1)
    const path = tempDb()
    const store = SqliteSessionStore.open({ path })
    open.push(store)
    expect(store.settings().layoutVersion).toBe(1)
    const raw = new DatabaseSync(path, { readOnly: true })
    open.push(raw)
    const tables = raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all()
    expect(tables).toEqual([{ name: 'events' }, { name: 'sessions' }, { name: 'writers' }])
    expect(raw.prepare('PRAGMA user_version').get()).toEqual({ user_version: 1 })
  })

  test('issue 10: a version-1 file made before the summary index gets it at open; its rows and layout version stay', async () => {
    const path = tempDb()
    const raw = new DatabaseSync(path)
    // The layout as builds before the index wrote it, with one session of one turn.
    raw.exec(`BEGIN;
      CREATE TABLE sessions (id TEXT NOT NULL PRIMARY KEY, header TEXT NOT NULL) STRICT;
      CREATE TABLE events (session_id TEXT NOT NULL REFERENCES sessions (id), seq INTEGER NOT NULL CHECK (seq >= 0),
        type TEXT NOT NULL, time TEXT NOT NULL, data TEXT NOT NULL, op TEXT, PRIMARY KEY (session_id, seq)) STRICT;
      INSERT INTO sessions VALUES ('old', '{"version":1,"id":"old","createdAt":"2025-01-01T00:00:00.000Z","cwd":"/w"}');
      INSERT INTO events VALUES ('old', 0, 'turn/start', 't', '{"turn":1,"trigger":{"kind":"message"}}', NULL);
      INSERT INTO events VALUES ('old', 1, 'user/message', 't', '{"content":[{"type":"text","text":"hi there"}],"source":{"kind":"user"}}', '{"kind":"append"}');
      PRAGMA user_version = 1; COMMIT;`)
    raw.close()
    const store = SqliteSessionStore.open({ path })
    open.push(store)
    expect(await store.list()).toMatchObject([
      { id: 'old', turns: 1, firstPrompt: 'hi there', eventCount: 2 },
    ])
    const check = new DatabaseSync(path, { readOnly: true })
    open.push(check)
    const indexes = check
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")
      .all()
    expect(indexes).toEqual([{ name: 'events_summary' }])
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 1 })
  })

  test('SL-29 an empty (0-byte) file counts as fresh', () => {
    const path = tempDb()
    writeFileSync(path, '')
    const store = SqliteSessionStore.open({ path })
    open.push(store)
    expect(store.settings().layoutVersion).toBe(1)
  })

  test('SL-29 reopening a version-1 file keeps its sessions', async () => {
    const path = tempDb()
    const a = SqliteSessionStore.open({ path })
    await a.create({ version: 1, id: 'kept', createdAt: '2025-01-01T00:00:00.000Z', cwd: '/w' })
    await a.close()
    const b = SqliteSessionStore.open({ path, journalMode: 'delete' })
    open.push(b)
    expect((await b.list()).map((s) => s.id)).toEqual(['kept'])
  })

  test('SL-29 a file stamped 2 is refused with STORE_LAYOUT_MISMATCH and left byte-identical', () => {
    const path = tempDb()
    const db = new DatabaseSync(path)
    db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, header TEXT, extra TEXT);
             INSERT INTO sessions VALUES ('future', '{}', 'x'); PRAGMA user_version = 2;`)
    db.close()
    const before = snapshot(path)
    const error = refusal(path)
    expect(error.code).toBe('STORE_LAYOUT_MISMATCH')
    expect(error.message).toMatch(/layout version 2; this build reads only version 1/)
    expect(error.path).toBe(path)
    expect(snapshot(path)).toEqual(before)
  })

  test('SL-29 a stamped-2 WAL file in use by its own writer is refused without touching the main file', () => {
    const path = tempDb()
    const writer = new DatabaseSync(path)
    open.push(writer)
    writer.exec(`PRAGMA journal_mode = wal; PRAGMA wal_autocheckpoint = 0;
                 CREATE TABLE t (x); PRAGMA user_version = 2;`)
    writer.prepare('INSERT INTO t VALUES (?)').run('only in the WAL so far')
    const main = readFileSync(path)
    expect(refusal(path).code).toBe('STORE_LAYOUT_MISMATCH')
    expect(readFileSync(path).equals(main)).toBe(true)
    expect(writer.prepare('SELECT x FROM t').all()).toEqual([{ x: 'only in the WAL so far' }])
  })

  test('SL-29 a version-0 file with foreign tables is not a tack store: refused, untouched', () => {
    const path = tempDb()
    const db = new DatabaseSync(path)
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
    db.close()
    const before = snapshot(path)
    const error = refusal(path)
    expect(error.code).toBe('STORE_LAYOUT_MISMATCH')
    expect(error.message).toMatch(/not a tack session store/)
    expect(snapshot(path)).toEqual(before)
  })

  test('SL-29 a file that is not a database fails STORE_CORRUPT, says what to do and is left untouched', () => {
    const path = tempDb()
    writeFileSync(path, 'plain text, certainly not SQLite\n'.repeat(200))
    const before = snapshot(path)
    const error = refusal(path)
    expect(error.code).toBe('STORE_CORRUPT')
    expect(error.message).toMatch(
      /not an SQLite database \(reading it: SQLite says "file is not a database"\); tack left it unchanged\. Move it aside/,
    )
    expect(error.message).toContain(path)
    expect(snapshot(path)).toEqual(before)
  })
})
