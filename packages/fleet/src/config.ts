// `plugins.fleet`: the fleet's tunables (95-fleet.md F2–F4), validated like every plugin's config and
// listed in docs/configuration.md. Submitters read the job options (retries, heartbeat, timeout); workers
// read the rest.
import { type ConfigOf, Schema } from '@tack/kernel'

export const FleetConfig = Schema.object({
  gracefulStopMs: Schema.integer({
    default: 30_000,
    min: 0,
    max: 3_600_000,
    description:
      'On SIGTERM a worker takes no new job and lets its running jobs finish for this long; then it ' +
      'ends their turns like Ctrl-C and hands them back to the queue (each becomes a new attempt elsewhere).',
  }),
  retryLimit: Schema.integer({
    default: 2,
    min: 0,
    max: 20,
    description:
      'Attempts after the first that a job gets (set when it is submitted): a job whose worker died, ' +
      'was stopped or whose session failed runs again until this many retries are used, then fails with ' +
      "each attempt's reason.",
  }),
  heartbeatSeconds: Schema.integer({
    default: 30,
    min: 10,
    max: 3600,
    description:
      "A running job's lease (set when it is submitted): a worker that stops refreshing it this long (killed, " +
      'cut off, its machine gone) loses the job, which runs again elsewhere as a new attempt.',
  }),
  leaseCheckMs: Schema.integer({
    default: 1000,
    min: 100,
    max: 60_000,
    description:
      "How often a worker refreshes its running jobs' leases and so learns of a cancel (which then ends " +
      'the turn like Ctrl-C) or of a lease it lost.',
  }),
  pollIntervalMs: Schema.integer({
    default: 500,
    min: 50,
    max: 60_000,
    description: 'How long an idle worker waits between asks for a job.',
  }),
  maxJobMinutes: Schema.integer({
    default: 240,
    min: 1,
    max: 1440,
    description:
      'A job running longer than this is failed by the queue (set when it is submitted), whatever its heartbeats.',
  }),
})
export type FleetConfig = ConfigOf<typeof FleetConfig>

/**
 * The catalog entry's plugin (apps/tack/src/plugin-catalog.ts `fleet`): it only carries `Config`, so
 * config files are checked against it; boot never loads it into a session.
 */
export const FleetSettingsPlugin = {
  name: 'fleet',
  Config: FleetConfig,
  apply(): void {},
}
