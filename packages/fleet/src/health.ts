// `tack doctor`'s view of the fleet (95-fleet.md F6): the queue is there, and which workers were heard
// from recently (pg-boss's instance registry: each worker heartbeats its own row).
import type { Fleet } from './db.ts'
import { QUEUE_PREFIX } from './labels.ts'

export interface FleetHealth {
  readonly queues: ReadonlyArray<{ readonly name: string; readonly queued: number; readonly active: number }>
  readonly workers: ReadonlyArray<{
    readonly name: string
    readonly live: boolean
    readonly heartbeatOn: Date
  }>
}

export async function fleetHealth(fleet: Fleet): Promise<FleetHealth> {
  const queues = (await fleet.boss.getQueues())
    .filter((q) => q.name === QUEUE_PREFIX || q.name.startsWith(`${QUEUE_PREFIX}/`))
    .map((q) => ({ name: q.name, queued: q.queuedCount, active: q.activeCount }))
  const workers = (await fleet.boss.getInstances())
    .filter((i) => i.name !== null && i.stoppedOn === null)
    .map((i) => ({ name: i.name as string, live: i.live, heartbeatOn: i.heartbeatOn }))
  return { queues, workers }
}
