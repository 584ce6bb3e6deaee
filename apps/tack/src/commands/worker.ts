// `tack worker [--concurrency N] [--labels k=v,…]` (95-fleet.md F3, F4): takes jobs from the shared
// database and runs each as a headless session through tack's library (fleet-runner.ts) — the plugins,
// sandbox and permission mode of `tack run`, `workspace-write` unless configured — in a fresh clone
// under the scratch folder (--scratch, default ~/.cache/tack-worker, out of other jobs' reach:
// worker-scratch.ts), removed afterwards. SIGTERM (or Ctrl-C) stops taking jobs and gives
// running ones plugins.fleet.gracefulStopMs to finish before they are handed back; a second signal
// exits at once (the jobs' leases then lapse and they run again elsewhere).
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { UsageError } from '../args.ts'
import { PERMISSION_MODES } from '../config/load.ts'
import { cliErrorOf, fleetSettings } from '../fleet-settings.ts'
import type { CommandIO } from '../io.ts'
import { printable } from '../printable.ts'
import { SIGNAL_EXIT_CODES } from '../signal-exit.ts'
import { defaultScratch, scratchRefusal, scratchWarning } from '../worker-scratch.ts'

export const WORKER_HELP = `usage: tack worker [--concurrency N] [--labels k=v,…] [--name NAME] [--scratch DIR]
                   [--permission-mode MODE] [--config FILE] [--profile NAME] [--scripted-models]

Runs jobs (\`tack jobs submit\`) from the database in TACK_STORE_URL or plugins.store.url, at most N at a
time (default 1), each a headless session in a fresh clone of its repository under DIR (default
$XDG_CACHE_HOME/tack-worker or ~/.cache/tack-worker: jobs' sandboxed commands may write temp folders,
so a DIR in one lets jobs change each other's checkouts), removed afterwards. It takes a job only when
it offers every label the job asks for. SIGTERM or Ctrl-C: no new jobs; running ones get
plugins.fleet.gracefulStopMs to finish, then are handed back to the queue. A worker that cannot run
jobs at all (no key for the model, no model) hands the job back without counting the attempt and
exits 1 saying why. A job naming a scripted/<file> model (a test script on the worker's disk) fails
unless the worker was started with --scripted-models.
`

const OPTIONS = {
  concurrency: { type: 'string' },
  labels: { type: 'string', multiple: true },
  name: { type: 'string' },
  scratch: { type: 'string' },
  'permission-mode': { type: 'string' },
  config: { type: 'string' },
  profile: { type: 'string' },
  'scripted-models': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export async function workerCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values']
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true }).values
  } catch (error) {
    throw new UsageError(`worker: ${(error as Error).message.split(/\.\s/)[0]} (see tack worker --help)`)
  }
  if (values.help) {
    io.out(WORKER_HELP)
    return 0
  }
  const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw new UsageError(`--concurrency must be a whole number from 1 to 64 (got "${values.concurrency}")`)
  const mode = values['permission-mode']
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode))
    throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (got "${mode}")`)
  const fleetLib = await import('@tack/fleet')
  const { url, config, resolved } = await fleetSettings(values, io)
  const name = values.name ?? fleetLib.defaultWorkerName()
  if (!/^[\w.:@-]{1,80}$/.test(name))
    throw new UsageError(`--name must be letters, digits and _ . : @ - (got "${name}")`)
  const err = (line: string) => io.err(`${printable(line)}\n`)
  let labels: ReturnType<typeof fleetLib.parseLabels>
  try {
    labels = fleetLib.parseLabels(values.labels ?? [])
  } catch (error) {
    throw cliErrorOf(error)
  }
  const scratch = values.scratch !== undefined ? resolve(io.cwd, values.scratch) : defaultScratch(io.env)
  const refusal = scratchRefusal(scratch, resolved.paths.home)
  if (refusal) throw new UsageError(refusal)
  const scratchProblem = scratchWarning(scratch)
  if (scratchProblem) err(`tack worker ${name}: ${scratchProblem}`)
  const { libraryRunner } = await import('../fleet-runner.ts')
  let fleet: Awaited<ReturnType<typeof fleetLib.openFleet>>
  try {
    fleet = await fleetLib.openFleet(url, {
      // The supervisor fails a dead worker's jobs back to the queue; a third of the lease keeps the
      // delay after a lapse short.
      worker: { name, superviseSeconds: Math.max(1, Math.floor(config.heartbeatSeconds / 3)) },
      warn: err,
    })
  } catch (error) {
    throw cliErrorOf(error)
  }
  const runner = await libraryRunner({
    url,
    env: io.env,
    tackHome: resolved.paths.home,
    ...(values.config !== undefined ? { configFile: resolve(io.cwd, values.config) } : {}),
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
    permissionMode: (mode ?? resolved.settings.permissionMode ?? 'workspace-write') as never,
    warn: err,
    scriptedModels: values['scripted-models'] === true,
  })
  const worker = new fleetLib.Worker({
    fleet,
    runner,
    name,
    concurrency,
    labels,
    scratchDir: fleetLib.scratchFolder(scratch, name),
    config,
    log: err,
  })
  let stopping: NodeJS.Signals | undefined
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(SIGNAL_EXIT_CODES[signal])
    stopping = signal
    err(
      `tack worker: ${signal}: taking no new jobs; ${worker.runningJobs} running get ${config.gracefulStopMs} ms to finish`,
    )
    void worker.stop()
  }
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const
  for (const s of signals) process.on(s, onSignal)
  const offered = Object.entries(labels).map(([k, v]) => `${k}=${v}`)
  err(
    `tack worker ${name}: taking jobs (${concurrency} at a time${offered.length ? `, labels ${offered.join(',')}` : ''})`,
  )
  try {
    await worker.run()
    await worker.stop()
  } finally {
    for (const s of signals) process.off(s, onSignal)
    await runner.close()
    await fleet.close()
  }
  // A worker that cannot run any job (no key for the model) handed its job back uncounted and stopped
  // taking more: a non-zero exit and one line saying why, for a person or a service manager to act on.
  if (worker.cannotRun !== undefined) {
    err(
      `tack worker ${name}: stopped: it cannot run jobs: ${worker.cannotRun} (the job it took is queued again, its attempt not counted)`,
    )
    return 1
  }
  err(`tack worker ${name}: stopped`)
  return 0
}
