// `tack doctor`'s view of the fleet (95-fleet.md F6): whether the queue is installed, its queues' counts,
// and which workers were heard from recently (pg-boss's instance registry: each worker heartbeats its
// own row). Read-only: nothing is created or migrated by looking.
import { type Db, PgBoss } from 'pg-boss'
import { explainConnectFailure } from './errors.ts'
import { QUEUE_PREFIX } from './labels.ts'

export interface FleetHealth {
  /** False when no job was ever submitted to this database (pg-boss is not installed yet). */
  readonly installed: boolean
  readonly queues: ReadonlyArray<{ readonly name: string; readonly queued: number; readonly active: number }>
  /** Workers not stopped, with whether pg-boss heard from them within three heartbeats. */
  readonly workers: ReadonlyArray<{
    readonly name: string
    readonly live: boolean
    readonly heartbeatOn: Date
  }>
}

/** A connection to read through (doctor's own), or a URL to open one. */
export type HealthSource = { readonly url: string } | { readonly db: Db }

export async function fleetHealth(source: HealthSource): Promise<FleetHealth> {
  const url = 'url' in source ? source.url : ''
  const boss = new PgBoss({
    ...('url' in source
      ? {
          connectionString: source.url,
          max: 1,
          connectionTimeoutMillis: 10_000,
          application_name: 'tack doctor',
        }
      : { db: source.db }),
    migrate: false,
    supervise: false,
    schedule: false,
    registerInstance: false,
  })
  boss.on('error', () => {})
  try {
    await boss.start()
  } catch (error) {
    await boss.stop({ graceful: false, timeout: 1000 }).catch(() => {})
    const e = error as { code?: string }
    if (e?.code || /ECONN|password|timeout|ENOTFOUND/i.test(String(error)))
      throw explainConnectFailure(error, url)
    return { installed: false, queues: [], workers: [] }
  }
  try {
    const names = (await boss.getQueues())
      .map((q) => q.name)
      .filter((name) => name === QUEUE_PREFIX || name.startsWith(`${QUEUE_PREFIX}/`))
    // getQueues' counts are a cache the supervisor refreshes; doctor counts now. One queue after
    // another: doctor's source is one connection, and queries sent to it at once are pg's deprecated
    // use (a warning on doctor's stderr) and queue up there anyway.
    const queues: Array<{ name: string; queued: number; active: number }> = []
    for (const name of names) {
      const [now] = await boss.getQueueStats(name, { force: true })
      queues.push({ name, queued: now?.queuedCount ?? 0, active: now?.activeCount ?? 0 })
    }
    const workers = (await boss.getInstances())
      .filter((i) => i.name !== null && i.stoppedOn === null)
      .map((i) => ({ name: i.name as string, live: i.live, heartbeatOn: i.heartbeatOn }))
    return { installed: true, queues, workers }
  } finally {
    await boss.stop({ graceful: false, timeout: 1000 }).catch(() => {})
  }
}
