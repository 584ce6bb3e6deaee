import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { ConfigError, Context } from '@tack/kernel'
import { afterEach, describe, expect, test } from 'vitest'
import {
  applyJournalMode,
  JOURNAL_MODES,
  resolveStorePath,
  SqliteSessionStore,
  SqliteStoreConfig,
  SqliteStoreError,
  SqliteStorePlugin,
} from '../src/index.ts'
import { tempDb, tempDir } from './helpers.ts'

const open: Array<{ close(): unknown }> = []
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close()
})
function store(config: Parameters<typeof SqliteSessionStore.open>[0]) {
  const s = SqliteSessionStore.open(config)
  open.push(s)
  return s
}

describe('SQLite config (SL-28)', () => {
  test('SL-28 defaults: sessions.db, wal, 5000 ms busy timeout, synchronous auto', () => {
    expect(SqliteStoreConfig.parse({})).toEqual({
      path: 'sessions.db',
      journalMode: 'wal',
      busyTimeoutMs: 5000,
      leaseTimeoutMs: 30_000,
      synchronous: 'auto',
    })
  })

  test("SL-28 the default path is sessions.db in tack's data directory ($TACK_HOME, a relative one against the cwd, else ~/.tack)", () => {
    const defaults = SqliteStoreConfig.parse({})
    expect(resolveStorePath(defaults, { TACK_HOME: '/srv/tack' })).toBe('/srv/tack/sessions.db')
    expect(resolveStorePath(defaults, { TACK_HOME: 'relative/home' })).toBe(
      join(process.cwd(), 'relative', 'home', 'sessions.db'),
    )
    expect(resolveStorePath(defaults, {})).toBe(join(homedir(), '.tack', 'sessions.db'))
    // Configured: a dataDir, a relative path inside it, an absolute path that ignores it.
    const dataDir = '/data/t'
    expect(resolveStorePath(SqliteStoreConfig.parse({ dataDir }), {})).toBe('/data/t/sessions.db')
    expect(resolveStorePath(SqliteStoreConfig.parse({ dataDir, path: 'db/x.db' }), {})).toBe(
      '/data/t/db/x.db',
    )
    expect(resolveStorePath(SqliteStoreConfig.parse({ dataDir, path: '/abs/y.db' }), {})).toBe('/abs/y.db')
  })

  test('SL-28 the default config reads back wal; the file is created in dataDir (folder made when missing)', () => {
    const dataDir = join(tempDir(), 'not', 'yet')
    const s = store({ dataDir })
    expect(s.path).toBe(join(dataDir, 'sessions.db'))
    expect(s.settings()).toMatchObject({
      journalMode: 'wal',
      synchronous: 'normal',
      busyTimeoutMs: 5000,
      foreignKeys: true,
      layoutVersion: 1,
    })
    // WAL is a property of the file: a fresh connection sees it too.
    const raw = new DatabaseSync(s.path)
    open.push(raw)
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
  })

  test.each(JOURNAL_MODES)('SL-28 journalMode %s reads back on the store connection', async (mode) => {
    const s = store({ path: tempDb(), journalMode: mode })
    expect(s.settings().journalMode).toBe(mode)
    // auto: normal under WAL, full under the rollback journals.
    expect(s.settings().synchronous).toBe(mode === 'wal' ? 'normal' : 'full')
    await s.create({ version: 1, id: 'x', createdAt: '2025-01-01T00:00:00.000Z', cwd: '/w' })
    expect((await s.list()).map((x) => x.id)).toEqual(['x'])
  })

  test('SL-28 configured busyTimeoutMs and synchronous read back', () => {
    expect(SqliteStoreConfig.parse({ leaseTimeoutMs: 5000 }).leaseTimeoutMs).toBe(5000)
    const s = store({ path: tempDb(), busyTimeoutMs: 0, synchronous: 'extra' })
    expect(s.settings()).toMatchObject({ busyTimeoutMs: 0, synchronous: 'extra' })
    const t = store({ path: tempDb(), busyTimeoutMs: 250, synchronous: 'full', journalMode: 'wal' })
    expect(t.settings()).toMatchObject({ busyTimeoutMs: 250, synchronous: 'full', journalMode: 'wal' })
  })

  test.each([
    [
      { journalMode: 'memory' },
      /journalMode: must be one of 'wal', 'delete', 'truncate', 'persist' \(got "memory"\)/,
    ],
    [{ journalMode: 'off' }, /journalMode: must be one of 'wal', 'delete', 'truncate', 'persist'/],
    [{ journalMode: 'WAL' }, /journalMode: must be one of/],
    [{ busyTimeoutMs: -1 }, /busyTimeoutMs: must be an integer 0–2147483647 \(got -1\)/],
    [{ busyTimeoutMs: 1.5 }, /busyTimeoutMs: must be an integer/],
    [{ busyTimeoutMs: '5000' }, /busyTimeoutMs: must be an integer/],
    [{ leaseTimeoutMs: 999 }, /leaseTimeoutMs: must be an integer 1000–86400000 \(got 999\)/],
    [{ leaseTimeoutMs: 86_400_001 }, /leaseTimeoutMs: must be an integer 1000–86400000/],
    [{ synchronous: 'off' }, /synchronous: must be one of 'auto', 'normal', 'full', 'extra'/],
    [{ path: '' }, /path: must be a non-empty string/],
    [{ dataDir: 'relative/dir' }, /dataDir: must be an absolute directory path/],
    [{ journal: 'wal' }, /journal: unknown key/],
  ])('SL-28 %j is rejected at config load, naming the field and the allowed values', (input, message) => {
    expect(() => SqliteStoreConfig.parse(input)).toThrow(ConfigError)
    expect(() => SqliteStoreConfig.parse(input)).toThrow(message)
    expect(() => SqliteSessionStore.open(input as never)).toThrow(message)
  })

  test("SL-28 the plugin rejects journalMode 'memory' when it loads, before opening any file", async () => {
    const dataDir = join(tempDir(), 'never')
    const ctx = new Context()
    await expect(ctx.plugin(SqliteStorePlugin, { dataDir, journalMode: 'memory' } as never)).rejects.toThrow(
      /journalMode.*'wal', 'delete', 'truncate', 'persist'/,
    )
    expect(ctx.get('sessionStore')).toBeUndefined()
    expect(() => readFileSync(join(dataDir, 'sessions.db'))).toThrow(/ENOENT/)
  })

  test('SL-28 a journal mode SQLite does not take fails with PRAGMA_MISMATCH', () => {
    // An in-memory database keeps journal_mode 'memory' whatever is asked: a real read-back mismatch.
    const db = new DatabaseSync(':memory:')
    open.push(db)
    const error = (() => {
      try {
        applyJournalMode(db, 'wal')
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(SqliteStoreError)
    expect(error).toMatchObject({ code: 'PRAGMA_MISMATCH', message: expect.stringMatching(/'memory'/) })
  })

  test('SL-28 open fails naming the journal mode when another connection keeps the file in WAL', () => {
    const path = tempDb()
    const first = store({ path })
    expect(first.settings().journalMode).toBe('wal')
    // Leaving WAL needs the file to itself; with busyTimeoutMs 0 the refusal is immediate.
    expect(() => SqliteSessionStore.open({ path, journalMode: 'delete', busyTimeoutMs: 0 })).toThrow(
      /STORE_BUSY: .*locked for more than 0 ms \(setting journal_mode = delete: SQLite says "database is locked"\)/,
    )
    expect(first.settings().journalMode).toBe('wal')
  })

  test('SL-28 the README has a row for every config field', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    const fields = SqliteStoreConfig.describe().map((f) => f.path)
    expect(fields).toEqual([
      'dataDir',
      'path',
      'journalMode',
      'busyTimeoutMs',
      'leaseTimeoutMs',
      'synchronous',
    ])
    for (const field of fields) expect(readme).toMatch(new RegExp(`^\\| \`${field}\` \\|`, 'm'))
  })
})
