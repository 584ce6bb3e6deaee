// @tack/fleet: jobs on pg-boss and the worker that runs them as headless sessions (issue 28 item 2,
// 95-fleet.md F2–F4, F6's queue check). The read API (listJobs, getJob, followJobs) is what `tack serve`
// draws its job table from; see README.md.
export { cancelJob, retryJob } from './control.ts'
export { checkoutJob, checkRepository, type Workspace } from './checkout.ts'
export { FleetConfig, FleetSettingsPlugin } from './config.ts'
export {
  defaultWorkerName,
  FLEET_SCHEMA_VERSION,
  type Fleet,
  type OpenFleetOptions,
  openFleet,
} from './db.ts'
export { describeUrl, FleetError, type FleetErrorCode } from './errors.ts'
export { checkJob, isRemote, type JobInput, type JobSpec, parseJobLines } from './job-spec.ts'
export {
  type AttemptOutcome,
  type AttemptView,
  JOB_STATES,
  type JobResult,
  type JobState,
  type JobView,
} from './job-view.ts'
export { type Labels, parseLabels, QUEUE_PREFIX, queueFor } from './labels.ts'
export { type FollowOptions, followJobs, getJob, type ListOptions, listJobs } from './read.ts'
export {
  type RunningSession,
  type SessionOutcome,
  type SessionRunner,
  type StartSession,
  WorkerCannotRunError,
} from './runner.ts'
export { ensureQueue, type SubmitOptions, submitJobs } from './submit.ts'
export { fleetHealth, type FleetHealth, type HealthSource } from './health.ts'
export { scratchFolder, Worker, type WorkerOptions } from './worker.ts'
