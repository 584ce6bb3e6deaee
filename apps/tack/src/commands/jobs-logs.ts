// `tack jobs logs ID` (95-fleet.md F2): the job's session events from the shared store, followed live
// while the job runs — a new attempt's session is followed from its start, under a line naming it —
// and ended once the job is done, failed or cancelled. Read-only: the store leaves a live writer's turn
// alone (the writer lease), so following a running job never disturbs it.
import type { Fleet, JobView } from '@tack/fleet'
import type { SessionEvent } from '@tack/session'
import type { CommandIO } from '../io.ts'
import { printableIO } from '../printable.ts'

const FOLLOW_MS = 500
const SETTLE_MS = 10_000

export async function followJobLogs(fleet: Fleet, ref: string, url: string, io: CommandIO): Promise<number> {
  const { getJob } = await import('@tack/fleet')
  const { PostgresSessionStore } = await import('@tack/store-postgres')
  const store = await PostgresSessionStore.open({ url }, { env: io.env })
  const out = printableIO(io).out
  const printed = new Map<string, number>()
  let finishedAt: number | undefined
  let wasQueued = false
  try {
    for (;;) {
      const job = await getJob(fleet, ref)
      // A job no worker has taken (yet, or again after a hand-back) would otherwise be a silent wait.
      if (job.state === 'queued' && !wasQueued) {
        const labels = Object.entries(job.spec.labels).map(([k, v]) => `${k}=${v}`)
        out(`── job queued: waiting for a worker${labels.length ? ` offering ${labels.join(',')}` : ''}\n`)
      }
      wasQueued = job.state === 'queued'
      for (const a of job.attempts) {
        if (!a.sessionId) continue
        const seen = printed.get(a.sessionId)
        if (seen === undefined) out(`── attempt ${a.attempt} on ${a.worker}, session ${a.sessionId}\n`)
        const { events } = await store.load(a.sessionId)
        for (const e of events.slice(seen ?? 0)) if (e.type !== 'assistant/chunk') out(eventLine(e))
        printed.set(a.sessionId, events.length)
      }
      // A cancelled job's worker appends the aborted turn's end after the queue says cancelled: its
      // attempt is followed until it settles (or, should that worker be gone, for SETTLE_MS more).
      const settling = job.attempts.some((a) => a.outcome === 'running')
      if (finished(job) && (!settling || (finishedAt ??= Date.now()) + SETTLE_MS < Date.now())) {
        out(`── job ${job.state}${job.reason ? `: ${job.reason}` : ''}\n`)
        return 0
      }
      await new Promise((r) => setTimeout(r, FOLLOW_MS))
    }
  } finally {
    await store.close()
  }
}

const finished = (job: JobView) => job.state === 'done' || job.state === 'failed' || job.state === 'cancelled'

function eventLine(e: SessionEvent): string {
  const data = JSON.stringify(e.data) ?? ''
  return `${String(e.seq).padStart(5)}  ${e.type.padEnd(22)} ${data.length > 160 ? `${data.slice(0, 159)}…` : data}\n`
}
