// The validated configuration of the SQLite store (SL-28) and where it puts the file. Every field
// fails at load naming the key and its allowed values; README rows mirror this schema.
import { isAbsolute, resolve } from 'node:path'
import { type ConfigOf, dataDirOf, Schema } from '@tack/kernel'

/** Journal modes that keep a durable journal on disk. `memory` and `off` lose the log on a crash. */
export const JOURNAL_MODES = ['wal', 'delete', 'truncate', 'persist'] as const
export type JournalMode = (typeof JOURNAL_MODES)[number]

/** `auto` is `normal` under WAL and `full` under the rollback journal modes (see README, Durability). */
export const SYNCHRONOUS_MODES = ['auto', 'normal', 'full', 'extra'] as const
export type SynchronousMode = (typeof SYNCHRONOUS_MODES)[number]

const absolutePath = (v: unknown): v is string => typeof v === 'string' && isAbsolute(v)

export const SqliteStoreConfig = Schema.object({
  dataDir: Schema.json<string>({
    allowed: 'an absolute directory path',
    test: absolutePath,
    description:
      "tack's data directory, against which a relative `path` resolves; absent: $TACK_HOME (a relative " +
      'value against the working folder), else ~/.tack. Created (mode 0700) when missing.',
  }).optional(),
  path: Schema.string({
    default: 'sessions.db',
    nonEmpty: true,
    description: 'The database file: absolute, or relative to dataDir. Its folder is created when missing.',
  }),
  journalMode: Schema.enum(JOURNAL_MODES, {
    default: 'wal',
    description:
      "SQLite journal mode, read back after setting it (open fails on a mismatch). 'wal' lets readers " +
      "run beside the writer; the rollback modes serve filesystems where WAL's shared memory fails " +
      '(network mounts).',
  }),
  busyTimeoutMs: Schema.integer({
    default: 5000,
    min: 0,
    max: 2_147_483_647,
    description:
      'How long a write waits for another connection (another tack process) to release the database ' +
      'before failing with "database is locked".',
  }),
  leaseTimeoutMs: Schema.integer({
    default: 30_000,
    min: 1000,
    max: 86_400_000,
    description:
      "How long a session's writer lease outlives its holder's last heartbeat (refreshed every third of " +
      'it) when the holder cannot be checked by pid: another host sharing the file, or no /proc. Until ' +
      'then, readers in other processes leave its open turn alone instead of closing it as interrupted.',
  }),
  synchronous: Schema.enum(SYNCHRONOUS_MODES, {
    default: 'auto',
    description:
      "SQLite's fsync policy. 'auto': 'normal' under WAL (a committed append survives a process kill; " +
      "a power loss may drop the last commits, never corrupts), 'full' under rollback journals.",
  }),
})
export type SqliteStoreConfig = ConfigOf<typeof SqliteStoreConfig>

/** The absolute database path a validated config names. */
export function resolveStorePath(config: SqliteStoreConfig, env: NodeJS.ProcessEnv = process.env): string {
  if (isAbsolute(config.path)) return resolve(config.path)
  return resolve(dataDirOf(config.dataDir, env), config.path)
}

/** The database and the files SQLite keeps beside it (journal, WAL, shared memory). */
export function sqliteFiles(db: string): string[] {
  return [db, `${db}-journal`, `${db}-wal`, `${db}-shm`]
}

/** The `PRAGMA synchronous` value a config asks for. */
export function synchronousFor(config: Pick<SqliteStoreConfig, 'journalMode' | 'synchronous'>) {
  if (config.synchronous !== 'auto') return config.synchronous
  return config.journalMode === 'wal' ? 'normal' : 'full'
}
