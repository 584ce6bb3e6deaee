// `tack worker` (95-fleet.md F3, F4): takes jobs from the queues its labels allow, at most `concurrency`
// at a time, and runs each as a headless session in a fresh checkout. pg-boss does the claiming (SKIP
// LOCKED: the same job is never given to two workers at once) and the expiry of a dead worker's lease;
// the worker refreshes its leases with pg-boss's fenced `touch`, which also tells it when a claim is
// gone (cancelled, or lapsed while it was cut off), and then ends that session like Ctrl-C.
import { join } from 'node:path'
import type { Job } from 'pg-boss'
import { beginAttempt, endAttempt, setAttemptSession, touchAttempt } from './attempts.ts'
import { checkoutJob, type Workspace } from './checkout.ts'
import type { FleetConfig } from './config.ts'
import { type Fleet, inTransaction } from './db.ts'
import { FleetError } from './errors.ts'
import type { JobSpec } from './job-spec.ts'
import type { JobResult } from './job-view.ts'
import { type Labels, labelsOfQueue, satisfies } from './labels.ts'
import { type RunningSession, type SessionRunner, WorkerCannotRunError } from './runner.ts'
import { claimScratch, releaseScratch } from './scratch-owner.ts'
import { failForGood, handBackUncounted } from './settle.ts'

export interface WorkerOptions {
  readonly fleet: Fleet
  readonly runner: SessionRunner
  readonly name: string
  readonly concurrency: number
  readonly labels: Labels
  /** Checkouts go in a folder of their own under this one, removed after each job. */
  readonly scratchDir: string
  readonly config: FleetConfig
  /** One line per job start and end, and every problem (stderr). */
  readonly log: (line: string) => void
}

type Ending = { kind: 'cancelled' } | { kind: 'lost' } | { kind: 'handed-back' }

interface Running {
  readonly jobId: string
  readonly done: Promise<void>
  /** Ends the session like Ctrl-C and records why. */
  end(ending: Ending): void
}

export class Worker {
  readonly #o: WorkerOptions
  readonly #running = new Map<string, Running>()
  readonly #stop = new AbortController()
  #queues: { at: number; names: string[] } = { at: 0, names: [] }
  #turn = 0
  #cannotRun: string | undefined

  constructor(options: WorkerOptions) {
    this.#o = options
  }

  get runningJobs(): number {
    return this.#running.size
  }

  /**
   * Why the worker stopped by itself: it cannot run jobs at all (no key for the model, no model), so
   * it handed the job back uncounted rather than fail job after job. Undefined while it can.
   */
  get cannotRun(): string | undefined {
    return this.#cannotRun
  }

  /** Takes and runs jobs until `stop()`; resolves once it has stopped taking them. */
  async run(): Promise<void> {
    const { config } = this.#o
    for (const line of await claimScratch(this.#o.scratchDir)) this.#o.log(`tack worker: ${line}`)
    // A submit wakes the idle loop at once; the poll is the fallback (a pooler that drops LISTEN).
    let wake: (() => void) | undefined
    let pending = false
    let takeFailure: string | undefined
    const stopListening = await this.#o.fleet.onJobsReady(() => {
      pending = true
      // The jobs may be on a queue (label set) created just now.
      this.#queues = { at: 0, names: [] }
      wake?.()
    })
    try {
      while (!this.#stop.signal.aborted) {
        if (this.#running.size >= this.#o.concurrency) {
          await Promise.race([...[...this.#running.values()].map((r) => r.done), aborted(this.#stop.signal)])
          continue
        }
        pending = false
        let took = false
        try {
          took = await this.#takeOne()
          if (takeFailure !== undefined) this.#o.log('tack worker: taking jobs again')
          takeFailure = undefined
        } catch (error) {
          // Once per distinct reason, not once per poll: a database down for an hour is one line, not
          // thousands.
          const reason = messageOf(error)
          if (reason !== takeFailure) this.#o.log(`tack worker: cannot take a job: ${reason} (retrying)`)
          takeFailure = reason
        }
        if (took || pending) continue
        const woken = new AbortController()
        wake = () => woken.abort()
        await sleep(config.pollIntervalMs, AbortSignal.any([this.#stop.signal, woken.signal]))
        wake = undefined
      }
    } finally {
      await stopListening()
    }
  }

  /**
   * Stops taking jobs; running ones get `gracefulStopMs` to finish, then their turns are ended like
   * Ctrl-C and the jobs handed back to the queue (a new attempt elsewhere).
   */
  async stop(): Promise<void> {
    this.#stop.abort()
    const all = Promise.all([...this.#running.values()].map((r) => r.done))
    const graceful = this.#o.config.gracefulStopMs
    const timer = setTimeout(() => {
      for (const r of this.#running.values()) r.end({ kind: 'handed-back' })
    }, graceful)
    await all
    clearTimeout(timer)
    await releaseScratch(this.#o.scratchDir)
  }

  async #eligibleQueues(): Promise<string[]> {
    if (Date.now() - this.#queues.at < 2000) return this.#queues.names
    const queues = await this.#o.fleet.boss.getQueues()
    const names = queues
      .map((q) => q.name)
      .filter((name) => {
        const wanted = labelsOfQueue(name)
        return wanted !== undefined && satisfies(this.#o.labels, wanted)
      })
      .sort()
    this.#queues = { at: Date.now(), names }
    return names
  }

  async #takeOne(): Promise<boolean> {
    const queues = await this.#eligibleQueues()
    // Start at a different queue each time, so one busy label set does not starve the others.
    const start = this.#turn++
    for (let i = 0; i < queues.length; i++) {
      const queue = queues[(start + i) % queues.length]
      const [job] = await this.#o.fleet.boss.fetch<JobSpec>(queue, { batchSize: 1 })
      if (!job) continue
      this.#start(queue, job)
      return true
    }
    return false
  }

  #start(queue: string, job: Job<JobSpec>): void {
    let end: (ending: Ending) => void = () => {}
    const ended = new Promise<Ending>((resolve) => {
      end = resolve
    })
    let endedBy: Ending | undefined
    const endJob = (ending: Ending) => {
      endedBy ??= ending
      end(ending)
    }
    this.#running.set(job.id, {
      jobId: job.id,
      end: endJob,
      done: this.#runJob(queue, job, endJob, ended, () => endedBy).finally(() =>
        this.#running.delete(job.id),
      ),
    })
  }

  async #runJob(
    queue: string,
    job: Job<JobSpec>,
    endJob: (ending: Ending) => void,
    ended: Promise<Ending>,
    endedBy: () => Ending | undefined,
  ): Promise<void> {
    const { fleet, log, name } = this.#o
    const spec = job.data
    const attempt = job.retryCount + 1
    // pg-boss's fence: settles and touches of this claim only land while it is still this attempt's.
    const claim = { id: job.id, retryCount: job.retryCount }
    const short = job.id.slice(0, 8)
    let workspace: Workspace | undefined
    let session: RunningSession | undefined
    let lastEvent: Date | undefined
    let recorded: Date | undefined
    const lease = setInterval(() => {
      void (async () => {
        try {
          const r = (await fleet.boss.touch(queue, claim)) as { affected?: number }
          if (!r.affected) {
            const [now] = await fleet.boss.findJobs(queue, { id: job.id })
            endJob(now?.state === 'cancelled' ? { kind: 'cancelled' } : { kind: 'lost' })
            return
          }
          if (lastEvent && lastEvent !== recorded) {
            recorded = lastEvent
            await touchAttempt(fleet, job.id, attempt, lastEvent)
          }
        } catch (error) {
          log(`tack worker: job ${short}: cannot refresh its lease: ${messageOf(error)}`)
        }
      })()
    }, this.#o.config.leaseCheckMs)
    try {
      const begun = await beginAttempt(fleet, job.id, attempt, name)
      for (const old of begun.interruptedSessions)
        await this.#o.runner.closeInterrupted?.(old).catch((error: unknown) => {
          log(`tack worker: job ${short}: cannot close the interrupted session ${old}: ${messageOf(error)}`)
        })
      log(`tack worker: job ${short} attempt ${attempt}: started`)
      try {
        workspace = await checkoutJob(spec, this.#o.scratchDir, `${job.id}-${attempt}`)
      } catch (error) {
        const reason = messageOf(error)
        await endAttempt(fleet, job.id, attempt, 'failed', reason)
        await fleet.boss.fail(queue, claim, { reason })
        log(`tack worker: job ${short} attempt ${attempt}: failed: ${reason}`)
        return
      }
      if (endedBy()) return await this.#settleEnded(queue, claim, job.id, attempt, endedBy() as Ending)
      session = await this.#startSession({
        cwd: workspace.dir,
        task: spec.task,
        ...(spec.model ? { model: spec.model } : {}),
        ...(spec.maxCostUsd !== undefined ? { maxCostUsd: spec.maxCostUsd } : {}),
        metadata: {
          jobId: job.id,
          attempt,
          ...(begun.previousSession ? { attemptOf: begun.previousSession } : {}),
        },
        onEvent: () => {
          lastEvent = new Date()
        },
      })
      await setAttemptSession(fleet, job.id, attempt, session.sessionId)
      const active = session
      void ended.then((e) => active.abort(e.kind === 'cancelled' ? 'cancelled' : 'interrupted'))
      const outcome = await session.result
      const ending = endedBy()
      if (ending) return await this.#settleEnded(queue, claim, job.id, attempt, ending)
      if (outcome.exitReason === 'completed') {
        const result: JobResult = {
          sessionId: session.sessionId,
          attempt,
          exitReason: outcome.exitReason,
          finalText: outcome.finalText,
          usage: outcome.usage,
          ...(outcome.costUsd !== undefined ? { costUsd: outcome.costUsd } : {}),
          diff: await workspace.diff(),
        }
        // One transaction: a reader never sees the job done while its attempt is still running.
        const completed = await inTransaction(fleet, async (db, client) => {
          const r = (await fleet.boss.complete(queue, claim, result, { db })) as { affected?: number }
          if (r.affected) await endAttempt(client, job.id, attempt, 'done')
          return Boolean(r.affected)
        })
        if (!completed) return await this.#settleEnded(queue, claim, job.id, attempt, { kind: 'lost' })
        log(`tack worker: job ${short} attempt ${attempt}: done`)
      } else if (outcome.exitReason === 'max-cost') {
        // The limit the person set bounds the job, not each attempt: another attempt would spend it again.
        const reason = `stopped by its cost limit${outcome.detail ? `: ${outcome.detail}` : ''}; not retried (\`tack jobs retry\` runs it again)`
        const output = { reason, sessionId: session.sessionId }
        if (!(await failForGood(fleet, queue, claim, attempt, output)))
          return await this.#settleEnded(queue, claim, job.id, attempt, { kind: 'lost' })
        log(`tack worker: job ${short} attempt ${attempt}: failed: ${reason}`)
      } else {
        const reason = `the session ended ${outcome.exitReason}${outcome.detail ? `: ${outcome.detail}` : ''}`
        const output = { reason, sessionId: session.sessionId }
        await inTransaction(fleet, async (db, client) => {
          await fleet.boss.fail(queue, claim, output, { db })
          await endAttempt(client, job.id, attempt, 'failed', reason)
        })
        log(`tack worker: job ${short} attempt ${attempt}: failed: ${reason}`)
      }
    } catch (error) {
      if (error instanceof WorkerCannotRunError)
        return await this.#handBackCannotRun(queue, claim, job.id, attempt, error.message)
      const reason = error instanceof FleetError ? error.message : `the worker failed: ${messageOf(error)}`
      log(`tack worker: job ${short} attempt ${attempt}: ${reason}`)
      session?.abort('interrupted')
      await endAttempt(fleet, job.id, attempt, 'failed', reason).catch(() => {})
      await fleet.boss.fail(queue, claim, { reason }).catch(() => {})
    } finally {
      clearInterval(lease)
      await workspace?.remove().catch(() => {})
    }
  }

  /**
   * The session, or a FleetError saying it could not start for the job's reason (a model no provider
   * serves, …); a WorkerCannotRunError (the worker's own reason) goes through as it is.
   */
  async #startSession(options: Parameters<SessionRunner['start']>[0]): Promise<RunningSession> {
    try {
      return await this.#o.runner.start(options)
    } catch (error) {
      if (error instanceof WorkerCannotRunError) throw error
      throw new FleetError('BAD_STATE', `the session could not start: ${messageOf(error)}`)
    }
  }

  /**
   * The worker cannot start any session (its reason, not the job's): the job goes back to the queue with
   * its retries intact, and the worker stops taking jobs, since the next one would fare the same.
   */
  async #handBackCannotRun(
    queue: string,
    claim: { id: string; retryCount: number },
    jobId: string,
    attempt: number,
    why: string,
  ): Promise<void> {
    const { fleet, log, name } = this.#o
    this.#cannotRun ??= why
    this.#stop.abort()
    const reason = `handed back, not counted: worker ${name} cannot run jobs: ${why}`
    try {
      if (await handBackUncounted(fleet, queue, claim, attempt, { reason }))
        log(`tack worker: job ${jobId.slice(0, 8)} attempt ${attempt}: handed back, not counted`)
      else await this.#settleEnded(queue, claim, jobId, attempt, { kind: 'lost' })
    } catch (error) {
      // The claim's lease lapses and the job runs again elsewhere, as after a kill.
      log(
        `tack worker: job ${jobId.slice(0, 8)} attempt ${attempt}: cannot hand it back: ${messageOf(error)}`,
      )
    }
  }

  /** A session ended by a cancel, a lost lease or the worker's stop: recorded, and handed back if stopping. */
  async #settleEnded(
    queue: string,
    claim: { id: string; retryCount: number },
    jobId: string,
    attempt: number,
    ending: Ending,
  ): Promise<void> {
    const { fleet, log, name } = this.#o
    const short = jobId.slice(0, 8)
    if (ending.kind === 'cancelled') {
      await endAttempt(fleet, jobId, attempt, 'cancelled', 'cancelled (the turn ended aborted)')
      log(`tack worker: job ${short} attempt ${attempt}: cancelled`)
    } else if (ending.kind === 'lost') {
      await endAttempt(
        fleet,
        jobId,
        attempt,
        'interrupted',
        `lost: worker ${name} could not refresh its lease in time`,
      )
      log(`tack worker: job ${short} attempt ${attempt}: lost its lease; it runs again elsewhere`)
    } else {
      // The worker's stop (a deploy, a restart), not the job's doing: the attempt is recorded but not
      // counted against the job's retries, or a job would fail after a few restarts of its workers.
      // A worker that dies instead (SIGKILL, a lost machine) still costs the job an attempt (F4).
      const reason = `handed back, not counted: worker ${name} stopped (SIGTERM) before the job finished`
      if (await handBackUncounted(fleet, queue, claim, attempt, { reason }))
        log(`tack worker: job ${short} attempt ${attempt}: ${reason}`)
      else await this.#settleEnded(queue, claim, jobId, attempt, { kind: 'lost' })
    }
  }
}

export function scratchFolder(base: string, workerName: string): string {
  return join(base, `worker-${workerName.replace(/[^A-Za-z0-9_.-]/g, '_')}`)
}

function messageOf(error: unknown): string {
  if (error instanceof FleetError) return error.message
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}
