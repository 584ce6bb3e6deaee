// `tack doctor`'s lines about the fleet (95-fleet.md F6), when a shared database is configured: the job
// queue (installed, jobs waiting and running) and the workers heard from recently. An unreachable
// database is a problem; a queue never used yet, or no live worker while jobs wait, a warning.
import type { Resolved } from '../settings.ts'
import { storeUrl } from '../store-url.ts'

export async function reportFleet(
  r: Resolved,
  env: NodeJS.ProcessEnv,
  line: (label: string, value: string) => void,
  problems: string[],
  warnings: string[],
): Promise<void> {
  let url: string | undefined
  try {
    url = storeUrl(r.settings, env)?.url
  } catch {
    return // a bad TACK_STORE_URL: the session store's line already names it
  }
  if (!url) return
  const { fleetHealth } = await import('@tack/fleet')
  let health: Awaited<ReturnType<typeof fleetHealth>>
  try {
    health = await fleetHealth(url)
  } catch (error) {
    line('job queue', 'UNREACHABLE')
    problems.push((error as Error).message)
    return
  }
  if (!health.installed) {
    line('job queue', 'not set up yet')
    warnings.push('no job was submitted to this database yet: the first `tack jobs submit` sets up the queue')
    return
  }
  const queued = health.queues.reduce((n, q) => n + q.queued, 0)
  const active = health.queues.reduce((n, q) => n + q.active, 0)
  line('job queue', `${health.queues.length} queue(s), ${queued} queued, ${active} running`)
  const live = health.workers.filter((w) => w.live)
  line('workers', live.length ? live.map((w) => w.name).join(', ') : '(none heard from recently)')
  if (queued > 0 && live.length === 0)
    warnings.push(
      `${queued} job(s) wait and no worker was heard from recently: start one with \`tack worker\``,
    )
}
