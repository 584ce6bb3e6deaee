// P12 (90-quality.md, docs/decisions/0355-fleet-past-one-database.md): the fleet on one PostgreSQL, on
// this machine, from one run —
//   1. jobs per minute with 1, 2 and 4 `tack worker` processes (concurrency 1 each), each job a scripted
//      one-answer session in a fresh clone, so the figure is the fleet's own cost per job (clone, session
//      start, store, diff, settle), not a model's;
//   2. the queue's overhead per job — `submitJobs` until a worker has recorded the attempt (what a person
//      waits for, the worker's poll interval included) — beside a bare pg-boss `send` + `fetch` round trip,
//      alternated round by round;
//   3. session events appended per second on PostgreSQL beside SQLite, by bench/fleet/store.ts (the
//      store's own bench) when it is there.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkJob, type Fleet, listJobs, openFleet, submitJobs } from '../../packages/fleet/src/index.ts'
import { startThrowawayCluster } from '../../packages/store-postgres/src/testing/index.ts'
import { pairedTimes } from '../lib/paired.ts'

const TACK = fileURLToPath(new URL('../../apps/tack/bin/tack.js', import.meta.url))
const JOBS = 12
const OVERHEAD_ROUNDS = 10
const ROUNDS = 3
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

const root = mkdtempSync(join(tmpdir(), 'bench-fleet-'))
const repo = join(root, 'repo')
mkdirSync(repo)
const git = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: repo,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@b',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@b',
    },
  })
git('init', '-q', '-b', 'main')
writeFileSync(join(repo, 'README.md'), 'bench\n')
git('add', '.')
git('commit', '-qm', 'bench')

const cluster = await startThrowawayCluster()
const submit = { retryLimit: 1, heartbeatSeconds: 30, maxJobMinutes: 10, submittedBy: 'bench' }
let scripts = 0
/** A job whose session is one scripted answer (a script file of its own: the cursor is per file). */
function job(task: string) {
  const script = join(root, `script-${++scripts}.json`)
  writeFileSync(script, JSON.stringify([{ kind: 'text', text: `done: ${task}` }]))
  return checkJob({ task, repo, model: `scripted/${script}` }, root)
}

function startWorkers(url: string, n: number, tag: string): ChildProcess[] {
  return Array.from({ length: n }, (_, i) => {
    const home = join(root, `home-${tag}-${i}`)
    mkdirSync(home, { recursive: true })
    // the jobs play a scripted model (a file of this machine), which a worker refuses without the flag
    const args = [
      'worker',
      '--name',
      `bench-${tag}-${i}`,
      '--scratch',
      join(root, 'scratch'),
      '--scripted-models',
    ]
    return spawn(process.execPath, [TACK, ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        TACK_HOME: join(home, '.tack'),
        TACK_STORE_URL: url,
        LANG: 'C.UTF-8',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
  })
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null) return resolve()
          w.once('exit', () => resolve())
          w.kill('SIGTERM')
        }),
    ),
  )
}

async function waitFor(what: () => Promise<boolean>, ms: number, label: string, everyMs = 50): Promise<void> {
  const end = Date.now() + ms
  while (!(await what())) {
    if (Date.now() > end) throw new Error(`timed out: ${label}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

/** Workers heard from (pg-boss's instance registry) before the clock starts. */
async function liveWorkers(fleet: Fleet): Promise<number> {
  return (await fleet.boss.getInstances()).filter((i) => i.live && i.stoppedOn === null && i.name).length
}

async function jobsPerMinute(workersN: number): Promise<number> {
  const url = await cluster.createDatabase()
  const fleet = await openFleet(url)
  const workers = startWorkers(url, workersN, `w${workersN}`)
  try {
    await waitFor(async () => (await liveWorkers(fleet)) >= workersN, 60_000, `${workersN} workers up`)
    // One job per worker first, untimed: a worker's first session loads the session's modules, a cost
    // paid once per process, not per job.
    await submitJobs(
      fleet,
      Array.from({ length: workersN }, (_, i) => job(`warm-up ${i}`)),
      submit,
    )
    await waitFor(
      async () => (await listJobs(fleet, { limit: workersN })).every((j) => j.state === 'done'),
      120_000,
      'warm-up jobs done',
    )
    const specs = Array.from({ length: JOBS }, (_, i) => job(`job ${i}`))
    const began = performance.now()
    await submitJobs(fleet, specs, submit)
    await waitFor(
      async () =>
        (await listJobs(fleet, { limit: JOBS })).every((j) => j.state === 'done' || j.state === 'failed'),
      300_000,
      `${JOBS} jobs done`,
    )
    const minutes = (performance.now() - began) / 60_000
    const failed = (await listJobs(fleet, { limit: JOBS })).filter((j) => j.state !== 'done')
    if (failed.length) throw new Error(`${failed.length} job(s) did not complete: ${failed[0].reason}`)
    return JOBS / minutes
  } finally {
    await stopWorkers(workers)
    await fleet.close()
  }
}

async function queueOverhead(): Promise<{ measured: number[]; baseline: number[] }> {
  const url = await cluster.createDatabase()
  const fleet = await openFleet(url)
  const workers = startWorkers(url, 1, 'overhead')
  const bare = 'bench-bare'
  await fleet.boss.createQueue(bare)
  try {
    await waitFor(async () => (await liveWorkers(fleet)) >= 1, 60_000, 'the worker up')
    const submitToStart = async () => {
      const began = performance.now()
      const [id] = await submitJobs(fleet, [job('overhead')], submit)
      await waitFor(
        async () =>
          (await fleet.pool.query('SELECT 1 FROM tack_fleet.attempts WHERE job_id = $1', [id])).rowCount ===
          1,
        60_000,
        'the job started',
        // Looked at every 2 ms, so the look adds little to what is measured.
        2,
      )
      const ms = performance.now() - began
      // The next round starts on an idle worker.
      await waitFor(
        async () => (await listJobs(fleet, { limit: 1 }))[0]?.state === 'done',
        60_000,
        'the job done',
      )
      return ms
    }
    const bareRoundTrip = async () => {
      const began = performance.now()
      const id = await fleet.boss.send(bare, { n: 1 })
      for (;;) {
        const [got] = await fleet.boss.fetch(bare)
        if (got) {
          await fleet.boss.complete(bare, got.id)
          if (got.id === id) break
        }
      }
      return performance.now() - began
    }
    return await pairedTimes(submitToStart, bareRoundTrip, { rounds: OVERHEAD_ROUNDS, warmup: 1 })
  } finally {
    await stopWorkers(workers)
    await fleet.close()
  }
}

try {
  // Rounds over the three sizes, each round in another order, so the machine's other load falls on all
  // of them alike; medians per size.
  const sizes = [1, 2, 4]
  const rates = new Map<number, number[]>(sizes.map((n) => [n, []]))
  for (let round = 0; round < ROUNDS; round++)
    for (const n of round % 2 === 0 ? sizes : [...sizes].reverse()) rates.get(n)?.push(await jobsPerMinute(n))
  const one = median(rates.get(1) ?? [])
  process.stdout.write(
    `   machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the end\n`,
  )
  process.stdout.write(
    `   jobs per minute (${JOBS} scripted one-answer jobs, \`tack worker\` processes, concurrency 1; median of ${ROUNDS} rounds):\n`,
  )
  for (const n of sizes) {
    const rate = median(rates.get(n) ?? [])
    process.stdout.write(
      `     ${n} worker${n > 1 ? 's' : ' '}  ${rate.toFixed(1).padStart(6)} /min  (${(rate / one).toFixed(2)}× one worker)\n`,
    )
  }
  const o = await queueOverhead()
  process.stdout.write(
    `   queue overhead per job, submit → attempt recorded: median ${median(o.measured).toFixed(1)} ms ` +
      `beside a bare pg-boss send + fetch: ${median(o.baseline).toFixed(1)} ms ` +
      `(${(median(o.measured) / median(o.baseline)).toFixed(1)}×; an idle worker is woken by NOTIFY)\n`,
  )
  // The store's own bench (bench/fleet/store.ts), on a database of this run's cluster.
  const storeBench = fileURLToPath(new URL('store.ts', import.meta.url))
  if (existsSync(storeBench)) {
    const { formatStoreAppends, measureStoreAppends } = (await import(
      storeBench
    )) as typeof import('./store.ts')
    const figures = await measureStoreAppends({ url: await cluster.createDatabase() })
    for (const line of formatStoreAppends(figures)) process.stdout.write(`   ${line}\n`)
  } else
    process.stdout.write(
      '   TODO appended session events per second, Postgres vs SQLite: bench/fleet/store.ts is not in this build\n',
    )
} finally {
  cluster.stop()
  rmSync(root, { recursive: true, force: true })
}
