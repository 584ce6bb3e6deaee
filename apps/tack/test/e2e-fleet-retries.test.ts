// When a failed attempt is not retried, and when an attempt does not count
// (docs/decisions/0385-fleet-retries.md), through the real binary on a throw-away PostgreSQL with the
// model on the loopback server: a job stopped by its `--max-cost` ends failed after one attempt (a
// person's `tack jobs retry` runs it once more); a worker without the key for the job's model — or
// with no model at all — hands the job back with its retries intact and exits 1 with one line, taking
// no further job, and a worker that has the key then runs it.
import { type ChildProcess, spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { JobView } from '@tack/fleet'
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

async function until<T>(what: () => Promise<T | undefined>, ms: number, label: string): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await what()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function stopWorker(child: ChildProcess, exited: ReturnType<typeof outcomeOf>) {
  if (child.exitCode === null) child.kill('SIGTERM')
  return exited
}

test('a job stopped by its --max-cost ends failed after one attempt, reason shown; `jobs retry` runs it once more', async () => {
  const box = await sandbox({ TACK_STORE_URL: await cluster.createDatabase() })
  const repo = await jobRepo(box)
  const server = await startLoopbackServer({
    script: [costlyRead, costlyRead, { kind: 'text', text: 'done on purpose' }],
  })
  const tack = (args: string[]) => runTack(args, { env: box.env, cwd: box.root })
  const show = async (id: string) =>
    JSON.parse((await tack(['jobs', 'show', id, '--json'])).stdout) as JobView
  const { child, exited } = startWorker(box, 'wcost', ['--config', await fleetConfig(box, server, false)])
  try {
    const submitted = await tack([
      'jobs',
      'submit',
      'spend',
      '--repo',
      repo,
      '--model',
      'loop/gpt-4o',
      '--max-cost',
      '4',
    ])
    expect(submitted.code, submitted.stderr).toBe(0)
    const id = submitted.stdout.trim()
    // The attempt's end is what is waited for: a retried job would be queued (or running) again by then.
    const stopped = await until(
      async () => {
        const job = await show(id)
        return job.attempts[0]?.endedAt ? job : undefined
      },
      30_000,
      'the first attempt to end',
    )
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
    const done = await until(
      async () => {
        const job = await show(id)
        return job.state === 'done' ? job : undefined
      },
      30_000,
      'the deliberate retry to finish',
    )
    expect(done.attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'failed'],
      [2, 'done'],
    ])
    expect(done.result?.finalText).toBe('done on purpose')
    expect(server.requests).toHaveLength(3)
  } finally {
    const out = await stopWorker(child, exited)
    await server.close()
    expect(out.code, out.stderr).toBe(0)
  }
}, 60_000)

test('a worker without the key for the job model hands it back uncounted, takes no other job and exits 1 with one line; a keyed worker then runs it', async () => {
  const box = await sandbox({ TACK_STORE_URL: await cluster.createDatabase() })
  const repo = await jobRepo(box)
  const server = await startLoopbackServer({
    expectApiKey: 'k',
    script: [
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ],
  })
  const tack = (args: string[]) => runTack(args, { env: box.env, cwd: box.root })
  const show = async (id: string) =>
    JSON.parse((await tack(['jobs', 'show', id, '--json'])).stdout) as JobView
  try {
    const config = await fleetConfig(box, server, true)
    const ids: string[] = []
    for (const task of ['one', 'two']) {
      const submitted = await tack(['jobs', 'submit', task, '--repo', repo, '--model', 'loop/gpt-4o'])
      expect(submitted.code, submitted.stderr).toBe(0)
      ids.push(submitted.stdout.trim())
    }
    const keyless = startWorker(box, 'nokey', ['--config', config])
    const out = await Promise.race([
      keyless.exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => {
          keyless.child.kill('SIGKILL')
          reject(new Error('the keyless worker kept running'))
        }, 30_000),
      ),
    ])
    expect(out.code, out.stderr).toBe(1)
    const last = out.stderr.trimEnd().split('\n').at(-1)
    expect(last).toMatch(
      /^tack worker nokey: stopped: it cannot run jobs: loop\/gpt-4o: LOOP_KEY is not set: export it or add it to .*\.env \(the job it took is queued again, its attempt not counted\)$/,
    )
    expect(out.stderr.match(/cannot run jobs/g)).toHaveLength(1)
    expect(server.requests).toHaveLength(0)
    const [first, second] = await Promise.all(ids.map(show))
    expect(first.state).toBe('queued')
    expect(first.attempts).toMatchObject([{ attempt: 1, worker: 'nokey', outcome: 'handed-back' }])
    expect(first.attempts[0].reason).toMatch(
      /^handed back, not counted: worker nokey cannot run jobs: .*LOOP_KEY/,
    )
    // its retries are intact: two more after this one, plus the one handed back
    expect(first.retryLimit).toBe(3)
    expect(second).toMatchObject({ state: 'queued', attempts: [] })

    const keyed = startWorker(box, 'keyed', ['--config', config], { ...box.env, LOOP_KEY: 'k' })
    try {
      const done = await until(
        async () => {
          const jobs = await Promise.all(ids.map(show))
          return jobs.every((j) => j.state === 'done') ? jobs : undefined
        },
        30_000,
        'the keyed worker to run both jobs',
      )
      expect(done[0].attempts.map((a) => [a.attempt, a.worker, a.outcome])).toEqual([
        [1, 'nokey', 'handed-back'],
        [2, 'keyed', 'done'],
      ])
      expect(done[1].attempts.map((a) => [a.attempt, a.outcome])).toEqual([[1, 'done']])
    } finally {
      const end = await stopWorker(keyed.child, keyed.exited)
      expect(end.code, end.stderr).toBe(0)
    }
  } finally {
    await server.close()
  }
}, 90_000)

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
