// Labels route jobs to workers the way CI runners' tags do (docs/decisions/0350-jobs-and-worker.md): a
// job's labels are requirements, a worker's labels are what it offers, and a worker takes a job only when
// it offers every label the job asks for. Each distinct label set is one pg-boss queue, so the routing
// is pg-boss's own claim (SKIP LOCKED on one queue), never a filter after fetching.
import { FleetError } from './errors.ts'

export type Labels = Readonly<Record<string, string>>

/** Every queue of tack's jobs starts with this; the unlabelled jobs are on it exactly. */
export const QUEUE_PREFIX = 'tack-jobs'

const PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,39}$/

/** `k=v` → [k, v]; both parts letters, digits, `_`, `.`, `-` (they become part of a queue name). */
export function parseLabel(text: string): [string, string] {
  const at = text.indexOf('=')
  const key = at < 0 ? '' : text.slice(0, at)
  const value = at < 0 ? '' : text.slice(at + 1)
  if (!PART.test(key) || !PART.test(value))
    throw new FleetError(
      'BAD_JOB',
      `label ${JSON.stringify(text)} is not key=value (letters, digits, _ . - in each, at most 40)`,
    )
  return [key, value]
}

/** Labels from `k=v` items (each may itself be a comma-separated list, as `--labels a=1,b=2`). */
export function parseLabels(items: readonly string[]): Labels {
  const out: Record<string, string> = {}
  for (const item of items.flatMap((i) => i.split(',')).filter((i) => i.trim() !== '')) {
    const [k, v] = parseLabel(item.trim())
    if (out[k] !== undefined && out[k] !== v)
      throw new FleetError('BAD_JOB', `label ${k} is given twice (${out[k]} and ${v})`)
    out[k] = v
  }
  return out
}

/** The pg-boss queue of a label set: `tack-jobs`, or `tack-jobs/k1/v1/k2/v2` with keys sorted. */
export function queueFor(labels: Labels): string {
  const keys = Object.keys(labels).sort()
  return [QUEUE_PREFIX, ...keys.flatMap((k) => [k, labels[k]])].join('/')
}

/** The label set a queue name stands for, or undefined when it is not one of tack's queues. */
export function labelsOfQueue(queue: string): Labels | undefined {
  if (queue === QUEUE_PREFIX) return {}
  if (!queue.startsWith(`${QUEUE_PREFIX}/`)) return undefined
  const parts = queue.slice(QUEUE_PREFIX.length + 1).split('/')
  if (parts.length % 2 !== 0) return undefined
  const out: Record<string, string> = {}
  for (let i = 0; i < parts.length; i += 2) out[parts[i]] = parts[i + 1]
  return out
}

/** Whether a worker offering `offered` may run a job asking for `wanted`. */
export function satisfies(offered: Labels, wanted: Labels): boolean {
  return Object.entries(wanted).every(([k, v]) => offered[k] === v)
}
