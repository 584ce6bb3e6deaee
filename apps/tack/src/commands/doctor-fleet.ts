// `tack doctor`'s fleet lines (95-fleet.md F6), one of the checks on the session store's database
// (doctor-database.ts DATABASE_CHECKS), read through doctor's own connection: the job queue (installed,
// jobs waiting and running) and the workers pg-boss heard from recently. Nothing is created: a database
// no job was ever submitted to says so.
import type { DatabaseCheck } from './doctor-database.ts'

export const fleetCheck: DatabaseCheck = async ({ client, line }) => {
  const { fleetHealth } = await import('@tack/fleet')
  const health = await fleetHealth({
    db: { executeSql: async (text, values) => client.query(text, values as unknown[]) },
  })
  if (!health.installed) {
    line('job queue', 'not set up yet (the first `tack jobs submit` sets it up)')
    return
  }
  const queued = health.queues.reduce((n, q) => n + q.queued, 0)
  const active = health.queues.reduce((n, q) => n + q.active, 0)
  line('job queue', `${health.queues.length} queue(s), ${queued} queued, ${active} running`)
  const live = health.workers.filter((w) => w.live)
  line(
    'workers',
    live.length
      ? live.map((w) => w.name).join(', ')
      : `(none heard from recently)${queued > 0 ? ` — ${queued} job(s) wait: start one with \`tack worker\`` : ''}`,
  )
}
