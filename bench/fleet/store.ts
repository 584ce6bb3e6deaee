// P12 (90-quality.md), the store's share: session events appended per second on PostgreSQL beside
// SQLite, measured in one run on the same workload (bench/log/workload.ts: the batches the loop flushes).
// Two shapes: one session appended batch after batch (a single worker: round-trip bound), and
// `parallel` sessions appended at once (a machine running several sessions; SQLite in one process
// serialises them, PostgreSQL spreads them over the pool). Rounds alternate which store goes first,
// and figures are medians, so a machine loaded by other work shifts both alike.
//
//   node bench/fleet/store.ts [--events N] [--rounds N] [--parallel N] [--json]
// Alone it starts a throw-away cluster (Debian's PostgreSQL, fsync off — see the printed note) unless
// TACK_BENCH_PG_URL names a database to use. bench/fleet/run.ts calls `measureStoreAppends`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SessionStore } from '@tack/session'
import { PostgresSessionStore } from '@tack/store-postgres'
import { SqliteSessionStore } from '@tack/store-sqlite'
import { type ScriptedLog, scriptedSession } from '../log/workload.ts'

export interface StoreAppendOptions {
  /** A database tack may create its schema in; each round uses fresh sessions in it. */
  readonly url: string
  /** Events per session; default 20,000. */
  readonly events?: number
  /** Measured rounds per store and shape; default 5. */
  readonly rounds?: number
  /** Sessions appended at once in the parallel shape; default 4. */
  readonly parallel?: number
}

export interface StoreAppendFigures {
  readonly events: number
  readonly batches: number
  readonly rounds: number
  readonly parallel: number
  /** Median events per second, one session. */
  readonly single: { readonly postgres: number; readonly sqlite: number; readonly ratio: number }
  /** Median events per second over `parallel` sessions appended at once. */
  readonly concurrent: { readonly postgres: number; readonly sqlite: number; readonly ratio: number }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

let sessionCounter = 0

/** Appends every batch of a copy of `log` per session, `sessions` at once; events per second. */
async function appendRate(store: SessionStore, log: ScriptedLog, sessions: number): Promise<number> {
  const batches = log.batches()
  const ids: string[] = []
  for (let i = 0; i < sessions; i++) {
    const id = `bench-${process.pid}-${++sessionCounter}`
    await store.create({ ...log.session.header, id })
    ids.push(id)
  }
  const start = performance.now()
  await Promise.all(
    ids.map(async (id) => {
      for (const batch of batches) await store.append(id, batch)
    }),
  )
  const ms = performance.now() - start
  return ((log.session.length * sessions) / ms) * 1000
}

/** Measures both stores on the same workload, alternating which goes first round by round. */
export async function measureStoreAppends(opts: StoreAppendOptions): Promise<StoreAppendFigures> {
  const events = opts.events ?? 20_000
  const rounds = opts.rounds ?? 5
  const parallel = opts.parallel ?? 4
  const log = scriptedSession('bench-store', events, 11)
  const dir = mkdtempSync(join(tmpdir(), 'tack-bench-store-'))
  const postgres = await PostgresSessionStore.open({ url: opts.url, poolSize: Math.max(4, parallel) })
  const sqlite = SqliteSessionStore.open({ path: join(dir, 'sessions.db') })
  try {
    // Warm-up, untimed: connections open, statements planned, the file's pages allocated.
    const warm = scriptedSession('bench-warm', 2_000, 3)
    await appendRate(postgres, warm, parallel)
    await appendRate(sqlite, warm, parallel)
    const rates = {
      pgSingle: [] as number[],
      sqSingle: [] as number[],
      pgPar: [] as number[],
      sqPar: [] as number[],
    }
    for (let round = 0; round < rounds; round++) {
      const pgFirst = round % 2 === 0
      for (const which of pgFirst ? ['pg', 'sq'] : ['sq', 'pg']) {
        const store = which === 'pg' ? postgres : sqlite
        const single = await appendRate(store, log, 1)
        const par = await appendRate(store, log, parallel)
        if (which === 'pg') {
          rates.pgSingle.push(single)
          rates.pgPar.push(par)
        } else {
          rates.sqSingle.push(single)
          rates.sqPar.push(par)
        }
      }
    }
    const pair = (pg: number[], sq: number[]) => {
      const p = median(pg)
      const s = median(sq)
      return { postgres: p, sqlite: s, ratio: p / s }
    }
    return {
      events: log.session.length,
      batches: log.batches().length,
      rounds,
      parallel,
      single: pair(rates.pgSingle, rates.sqSingle),
      concurrent: pair(rates.pgPar, rates.sqPar),
    }
  } finally {
    await postgres.close()
    await sqlite.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The figures as the lines bench/run.ts prints. */
export function formatStoreAppends(f: StoreAppendFigures): string[] {
  const n = (x: number) => x.toFixed(0).padStart(9)
  return [
    `workload: ${f.events} events per session in ${f.batches} batches; ${f.rounds} rounds, medians`,
    `appended events/s, one session:       postgres ${n(f.single.postgres)}   sqlite ${n(f.single.sqlite)}   postgres/sqlite ${f.single.ratio.toFixed(2)}`,
    `appended events/s, ${String(f.parallel).padEnd(2)} sessions at once: postgres ${n(f.concurrent.postgres)}   sqlite ${n(f.concurrent.sqlite)}   postgres/sqlite ${f.concurrent.ratio.toFixed(2)}`,
  ]
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name)
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} needs a positive integer`)
  return value
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json')
  let url = process.env.TACK_BENCH_PG_URL
  let stop: (() => void) | undefined
  if (!url) {
    const { startThrowawayCluster } = await import('@tack/store-postgres/testing')
    const cluster = await startThrowawayCluster()
    stop = () => cluster.stop()
    url = await cluster.createDatabase()
    if (!json)
      console.log(
        'PostgreSQL: a throw-away local cluster with fsync and synchronous_commit off; SQLite: WAL, ' +
          'synchronous normal (no fsync per commit either). Set TACK_BENCH_PG_URL to measure a real server.',
      )
  }
  try {
    const figures = await measureStoreAppends({
      url,
      events: flag('--events', 20_000),
      rounds: flag('--rounds', 5),
      parallel: flag('--parallel', 4),
    })
    if (json) console.log(JSON.stringify(figures))
    else for (const line of formatStoreAppends(figures)) console.log(line)
  } finally {
    stop?.()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
