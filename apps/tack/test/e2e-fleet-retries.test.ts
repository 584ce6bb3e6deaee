// When a failed attempt is not retried, and when an attempt does not count
// (docs/decisions/0385-fleet-retries.md), through the real binary on a throw-away PostgreSQL with the
// model on the loopback server: a job stopped by its `--max-cost` ends failed after one attempt (a
// person's `tack jobs retry` runs it once more); a worker without the key for the job's model — or
// with no model at all — hands the job back with its retries intact and exits 1 with one line, taking
// no further job, and a worker that has the key then runs it.
import { type ChildProcess, spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Fleet, getJob, type JobView, openFleet } from '@tack/fleet'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { outcomeOf, runTack, type Sandbox, sandbox, TACK_BIN } from './helpers.ts'
import { jobRepo } from './job-repo.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

/** gpt-4o's catalogue price is $10 per million output tokens: this step costs $2.50. */
const costlyRead = {
  kind: 'tool-calls' as const,
  calls: [{ name: 'read', args: { file_path: 'README.md' } }],
  usage: { inputTokens: 0, outputTokens: 250_000 },
}

/** The loopback endpoint `loop` (its key in LOOP_KEY when `keyed`) and quick fleet timings. */
async function fleetConfig(box: Sandbox, server: LoopbackServer, keyed: boolean): Promise<string> {
  const config = join(box.root, 'fleet.yml')
  const key = keyed ? ', apiKeyEnv: LOOP_KEY' : ''
  await writeFile(
    config,
    [
      'plugins:',
      '  fleet: { leaseCheckMs: 200, pollIntervalMs: 100 }',
      '  llm:',
      '    endpoints:',
      `      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}"${key} }`,
      '',
    ].join('\n'),
  )
  return config
}

function startWorker(box: Sandbox, name: string, args: string[], env: NodeJS.ProcessEnv = box.env) {
  const child = spawn(
    process.execPath,
    [TACK_BIN, 'worker', '--name', name, '--scratch', join(box.root, 'scratch'), ...args],
    { env, cwd: box.root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  return { child, exited: outcomeOf(child) }
}

/** Waits for a job (read through the library, as `tack serve` does) to be as `done` wants it. */
async function waitFor(fleet: Fleet, id: string, done: (job: JobView) => boolean, label: string) {
  const end = Date.now() + 30_000
  for (;;) {
    const job = await getJob(fleet, id)
    if (done(job)) return job
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}: ${JSON.stringify(job)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function stopWorker(child: ChildProcess, exited: ReturnType<typeof outcomeOf>) {
  if (child.exitCode === null) child.kill('SIGTERM')
  return exited
}

test('a job stopped by its --max-cost ends failed after one attempt, reason shown; `jobs retry` runs it once more', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await jobRepo(box)
  const server = await startLoopbackServer({
    script: [costlyRead, costlyRead, { kind: 'text', text: 'done on purpose' }],
  })
  const fleet = await openFleet(url)
  const tack = (args: string[]) => runTack(args, { env: box.env, cwd: box.root })
  const { child, exited } = startWorker(box, 'wcost', ['--config', await fleetConfig(box, server, false)])
  try {
    const spec = ['--repo', repo, '--model', 'loop/gpt-4o', '--max-cost', '4']
    const submitted = await tack(['jobs', 'submit', 'spend', ...spec])
    expect(submitted.code, submitted.stderr).toBe(0)
    const id = submitted.stdout.trim()
    // The attempt's end is what is waited for: a retried job would be queued (or running) again by then.
    await waitFor(fleet, id, (job) => job.attempts[0]?.endedAt !== undefined, 'the first attempt to end')
    const stopped = JSON.parse((await tack(['jobs', 'show', id, '--json'])).stdout) as JobView
    expect(stopped.state).toBe('failed')
    expect(stopped.reason).toMatch(/^stopped by its cost limit: .*over maxCostUsd \$4; not retried/)
    expect(stopped.attempts).toMatchObject([{ attempt: 1, worker: 'wcost', outcome: 'failed' }])
    expect(stopped.attempts[0].reason).toBe(stopped.reason)
    expect(server.requests).toHaveLength(2)
    const listed = JSON.parse((await tack(['jobs', 'list', '--json'])).stdout) as JobView[]
    expect(listed.map((j) => [j.state, j.reason])).toEqual([['failed', stopped.reason]])
    expect((await tack(['jobs', 'show', id])).stdout).toContain(`state:     failed — ${stopped.reason}\n`)

    const retried = await tack(['jobs', 'retry', id])
    expect(retried.code, retried.stderr).toBe(0)
    const done = await waitFor(fleet, id, (job) => job.state === 'done', 'the deliberate retry to finish')
    expect(done.attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'failed'],
      [2, 'done'],
    ])
    expect(done.result?.finalText).toBe('done on purpose')
    expect(server.requests).toHaveLength(3)
  } finally {
    const out = await stopWorker(child, exited)
    await fleet.close()
    await server.close()
    expect(out.code, out.stderr).toBe(0)
  }
}, 60_000)

test('a worker without the key for the job model hands it back uncounted, takes no other job and exits 1 with one line; a keyed worker then runs it', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await jobRepo(box)
  const server = await startLoopbackServer({
    expectApiKey: 'k',
    script: [
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ],
  })
  const fleet = await openFleet(url)
  const tack = (args: string[]) => runTack(args, { env: box.env, cwd: box.root })
  try {
    const config = await fleetConfig(box, server, true)
    const tasks = join(box.root, 'tasks.jsonl')
    await writeFile(
      tasks,
      '{"task": "one", "model": "loop/gpt-4o"}\n{"task": "two", "model": "loop/gpt-4o"}\n',
    )
    const submitted = await tack(['jobs', 'submit', '--from', tasks, '--repo', repo])
    expect(submitted.code, submitted.stderr).toBe(0)
    const ids = submitted.stdout.trim().split('\n')
    const keyless = startWorker(box, 'nokey', ['--config', config])
    const timer = setTimeout(() => keyless.child.kill('SIGKILL'), 30_000)
    const out = await keyless.exited
    clearTimeout(timer)
    expect(out.code, out.stderr).toBe(1)
    expect(out.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^tack worker nokey: stopped: it cannot run jobs: loop\/gpt-4o: LOOP_KEY is not set: export it or add it to .*\.env \(the job it took is queued again, its attempt not counted\)$/,
    )
    expect(out.stderr.match(/cannot run jobs/g)).toHaveLength(1)
    expect(server.requests).toHaveLength(0)
    // The list as a person reads it: the job the worker took is queued again, the other untouched.
    const listed = JSON.parse((await tack(['jobs', 'list', '--json'])).stdout) as JobView[]
    expect(listed.map((j) => j.id).sort()).toEqual([...ids].sort())
    const taken = listed.find((j) => j.attempts.length > 0) as JobView
    const untouched = listed.find((j) => j.id !== taken.id) as JobView
    expect(taken.state).toBe('queued')
    expect(taken.attempts).toMatchObject([{ attempt: 1, worker: 'nokey', outcome: 'handed-back' }])
    expect(taken.attempts[0].reason).toMatch(
      /^handed back, not counted: worker nokey cannot run jobs: .*LOOP_KEY/,
    )
    // its retries are intact: two more after this one, plus the one handed back
    expect(taken.retryLimit).toBe(3)
    expect(untouched).toMatchObject({ state: 'queued', attempts: [], retryLimit: 2 })

    const keyed = startWorker(box, 'keyed', ['--config', config], { ...box.env, LOOP_KEY: 'k' })
    try {
      for (const id of ids) await waitFor(fleet, id, (job) => job.state === 'done', 'the keyed worker')
      const [again, once] = await Promise.all([taken.id, untouched.id].map((id) => getJob(fleet, id)))
      expect(again.attempts.map((a) => [a.attempt, a.worker, a.outcome])).toEqual([
        [1, 'nokey', 'handed-back'],
        [2, 'keyed', 'done'],
      ])
      expect(once.attempts.map((a) => [a.attempt, a.outcome])).toEqual([[1, 'done']])
    } finally {
      const end = await stopWorker(keyed.child, keyed.exited)
      expect(end.code, end.stderr).toBe(0)
    }
  } finally {
    await fleet.close()
    await server.close()
  }
}, 60_000)

test('a worker with no model at all hands a job that names none back uncounted and exits 1', async () => {
  const box = await sandbox({ TACK_STORE_URL: await cluster.createDatabase() })
  const repo = await jobRepo(box)
  const tack = (args: string[]) => runTack(args, { env: box.env, cwd: box.root })
  const submitted = await tack(['jobs', 'submit', 'any model', '--repo', repo])
  expect(submitted.code, submitted.stderr).toBe(0)
  const worker = startWorker(box, 'nomodel', [])
  const timer = setTimeout(() => worker.child.kill('SIGKILL'), 30_000)
  const out = await worker.exited
  clearTimeout(timer)
  expect(out.code, out.stderr).toBe(1)
  expect(out.stderr.trimEnd().split('\n').at(-1)).toMatch(
    /^tack worker nomodel: stopped: it cannot run jobs: no model configured: set DEEPSEEK_API_KEY/,
  )
  const job = JSON.parse((await tack(['jobs', 'show', submitted.stdout.trim(), '--json'])).stdout) as JobView
  expect(job).toMatchObject({ state: 'queued', retryLimit: 3 })
  expect(job.attempts).toMatchObject([{ attempt: 1, outcome: 'handed-back' }])
}, 60_000)
