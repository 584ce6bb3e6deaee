// Opening the database file: refuse a foreign layout without writing a byte, set the connection up,
// create the layout on a blank file, then set and read back the journal mode and fsync policy.
import { closeSync, existsSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { makeOwnerOnlyFolder, TackHomeError } from '@tack/kernel/home'
import { tightenPath } from '@tack/kernel/private-files'
import { type JournalMode, type SqliteStoreConfig, type SynchronousMode, synchronousFor } from './config.ts'
import { SqliteStoreError } from './errors.ts'
import { explainSqliteFailure } from './failures.ts'
import { assertLayout, ensureLayout, readLayout } from './layout.ts'

/** Opens (creating when missing) the store file at the absolute `path`, set up as `config` says. */
export function openDatabase(path: string, config: SqliteStoreConfig): DatabaseSync {
  try {
    // Not a recursive mkdir: under /proc that spins forever (a dataDir of /proc/x would hang the run).
    makeOwnerOnlyFolder(dirname(path), {
      what: `the session store's folder ${dirname(path)}`,
      fix: 'set plugins.store.dataDir (or path) to a folder you can write',
    })
    // Created owner-only before SQLite sees it: the log holds everything the agent read and ran.
    // SQLite gives its -wal and -shm files the database file's mode. An empty file counts as fresh.
    closeSync(openSync(path, 'wx', 0o600))
  } catch (error) {
    if (error instanceof TackHomeError)
      throw new SqliteStoreError('STORE_OPEN_FAILED', error.message, { path })
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw openFailed(path, 'creating it', error)
    // A store an older tack (or another tool) left readable by others is made owner-only again, with
    // the journal files that copy its mode (docs/decisions/0145-private-files.md).
    for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) tightenOwn(file)
  }
  // A read-only look first: a file we refuse is never opened for writing, so it stays byte-identical
  // (a read-write connection could, for instance, checkpoint someone else's WAL into it on close).
  // A process killed mid-transaction leaves a hot journal (`-journal`) or write-ahead log (`-wal`) that
  // only a read-write connection can recover; such a file is a crash of ours, not a foreign file, so it
  // skips the read-only look (ensureLayout still refuses a foreign layout before writing to it).
  const hot = existsSync(`${path}-wal`) || existsSync(`${path}-journal`)
  if (!hot && existsSync(path) && statSync(path).size > 0) inspectReadOnly(path, config.busyTimeoutMs)

  let db: DatabaseSync
  try {
    db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: config.busyTimeoutMs })
  } catch (error) {
    throw openFailed(path, 'opening it', error, config.busyTimeoutMs)
  }
  try {
    setPragma(db, path, 'busy_timeout', config.busyTimeoutMs, 'timeout')
    setPragma(db, path, 'foreign_keys', 1)
    ensureLayout(db, path)
    applyJournalMode(db, config.journalMode, path)
    applySynchronous(db, synchronousFor(config), path)
    return db
  } catch (error) {
    db.close()
    if (error instanceof SqliteStoreError) throw error
    throw openFailed(path, 'setting it up', error, config.busyTimeoutMs)
  }
}

function inspectReadOnly(path: string, busyTimeoutMs: number): void {
  let db: DatabaseSync | undefined
  try {
    // The busy timeout applies here too: another tack process may hold the file for a moment.
    db = new DatabaseSync(path, { readOnly: true, timeout: busyTimeoutMs })
    assertLayout(readLayout(db), path)
  } catch (error) {
    if (error instanceof SqliteStoreError) throw error
    throw openFailed(path, 'reading it', error, busyTimeoutMs)
  } finally {
    db?.close()
  }
}

/**
 * Sets the journal mode and reads it back; SQLite answers with the mode in force, which differs when
 * it could not switch (e.g. an in-memory database stays `memory`). Fails `PRAGMA_MISMATCH` then.
 */
export function applyJournalMode(db: DatabaseSync, mode: JournalMode, path = db.location() ?? ':memory:') {
  let row: { journal_mode?: unknown } | undefined
  const timeoutMs = busyTimeoutOf(db)
  const deadline = Date.now() + timeoutMs
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      // The mode is kept in the file: a store another process already switched needs no switch, and
      // asking for it anyway would take the lock the switch takes.
      row = db.prepare('PRAGMA journal_mode').get() as typeof row
      if (String(row?.journal_mode).toLowerCase() === mode) return
      row = db.prepare(`PRAGMA journal_mode = ${mode}`).get() as typeof row
      break
    } catch (error) {
      // "database is locked". The switch upgrades a shared lock to an exclusive one, and SQLite answers
      // busy at once, without its busy timeout, when another process opening the same fresh file holds
      // a shared lock and waits for the same upgrade (three writers at once failed so in R1). Tried
      // again until the busy timeout has passed; leaving WAL needs the file to itself, so it waits too.
      if (!isBusy(error) || Date.now() >= deadline)
        throw openFailed(path, `setting journal_mode = ${mode}`, error, timeoutMs)
      sleepSync(Math.min(pause, Math.max(1, deadline - Date.now())))
    }
  }
  const got = String(row?.journal_mode).toLowerCase()
  if (got !== mode) {
    throw new SqliteStoreError(
      'PRAGMA_MISMATCH',
      `${path}: journal_mode = ${mode} was asked for but SQLite reports '${got}'`,
      { path },
    )
  }
}

/** SQLITE_BUSY or SQLITE_LOCKED, extended codes included. */
function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6)
}

/** Opening a store is synchronous (node:sqlite is); a pause between tries blocks only this thread. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function busyTimeoutOf(db: DatabaseSync): number {
  try {
    return Number((db.prepare('PRAGMA busy_timeout').get() as { timeout?: unknown }).timeout ?? 0)
  } catch {
    return 0
  }
}

const SYNCHRONOUS_LEVEL: Record<Exclude<SynchronousMode, 'auto'>, number> = { normal: 1, full: 2, extra: 3 }

function applySynchronous(db: DatabaseSync, mode: Exclude<SynchronousMode, 'auto'>, path: string): void {
  setPragma(db, path, 'synchronous', SYNCHRONOUS_LEVEL[mode])
}

/** Sets an integer pragma and checks it reads back (`column` names the result column when it differs). */
function setPragma(db: DatabaseSync, path: string, name: string, value: number, column = name): void {
  const row = db.prepare(`PRAGMA ${name} = ${value}`).get() as Record<string, unknown> | undefined
  const got = row?.[column] ?? (db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[column]
  if (got !== value) {
    throw new SqliteStoreError(
      'PRAGMA_MISMATCH',
      `${path}: ${name} = ${value} was asked for but SQLite reports ${String(got)}`,
      { path },
    )
  }
}

/** An SQLite failure explained (corrupt, read-only, full, busy, …); anything else `STORE_OPEN_FAILED`. */
function openFailed(path: string, what: string, cause: unknown, busyTimeoutMs = 0): SqliteStoreError {
  const explained = explainSqliteFailure(cause, path, what, busyTimeoutMs, 'STORE_OPEN_FAILED')
  if (explained instanceof SqliteStoreError) return explained
  const why = cause instanceof Error ? cause.message : String(cause)
  return new SqliteStoreError(
    'STORE_OPEN_FAILED',
    `${path}: ${what}: ${why}; check the folder is writable, or set TACK_HOME to one that is`,
    { path, cause },
  )
}

/** `tightenPath`, except that a file owned by someone else keeps the mode its owner chose (EPERM). */
function tightenOwn(file: string): void {
  try {
    tightenPath(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM')
      throw openFailed(file, 'making it owner-only', error)
  }
}
