// `tack jobs` and `tack worker` through the real binary on a throw-away PostgreSQL (95-fleet.md F2, F4;
// docs/decisions/0350-jobs-and-worker.md): bad input is one line and an exit code with nothing
// submitted; plugins.fleet is validated (default, configured, rejected); a cancel reaches a running
// session like Ctrl-C while `jobs logs` follows it live; a worker plays a job's scripted/ model only
// with --scripted-models (docs/decisions/0400-worker-scripted-models.md).
import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { JobView } from '@tack/fleet'
import { PostgresSessionStore } from '@tack/store-postgres'
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { outcomeOf, runTack, type Sandbox, sandbox, TACK_BIN } from './helpers.ts'
import { jobRepo } from './job-repo.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

const withRepo = (box: Sandbox) => jobRepo(box)

const oneLine = (stderr: string) => expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1)

test('bad input: one line and an exit code each, nothing submitted, never the password', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await withRepo(box)
  const tack = (args: string[], env = box.env) => runTack(args, { env, cwd: box.root })

  const empty = await tack(['jobs', 'submit', '   ', '--repo', repo])
  expect([empty.code, empty.stderr]).toEqual([2, 'tack: the task is empty\n'])
  await writeFile(
    join(box.root, 'tasks.jsonl'),
    `{"task": "fine"}\n{"task": "also fine", "labels": {"os": "li nux"}}\n`,
  )
  const batch = await tack(['jobs', 'submit', '--from', 'tasks.jsonl', '--repo', repo])
  expect(batch.code).toBe(2)
  expect(batch.stderr).toBe(
    'tack: tasks.jsonl line 2: label "os=li nux" is not key=value (letters, digits, _ . - in each, at most 40) (nothing submitted)\n',
  )
  const missing = await tack(['jobs', 'submit', 'x', '--repo', join(box.root, 'no-such-repo')])
  expect(missing.code).toBe(1)
  expect(missing.stderr).toMatch(
    /^tack: cannot clone \/.*no-such-repo: '.*no-such-repo' does not appear to be a git repository\n$/,
  )
  const listed = await tack(['jobs', 'list', '--json'])
  expect(JSON.parse(listed.stdout)).toEqual([])

  const wrong = await tack(['jobs', 'list'], {
    ...box.env,
    TACK_STORE_URL: url.replace(cluster.password, 'not-the-password'),
  })
  expect(wrong.code).toBe(1)
  oneLine(wrong.stderr)
  expect(wrong.stderr).toMatch(/^tack: the database at 127\.0\.0\.1:\d+\/\w+ refused the password/)
  const down = await tack(['jobs', 'list'], {
    ...box.env,
    TACK_STORE_URL: url.replace(`:${cluster.port}/`, ':1/'),
  })
  expect(down.code).toBe(1)
  expect(down.stderr).toMatch(/^tack: cannot reach the database at 127\.0\.0\.1:1\/\w+ \(ECONNREFUSED\)/)
  for (const r of [wrong, down]) expect(r.stderr + r.stdout).not.toContain(cluster.password)
  const noUrl = await tack(['jobs', 'list'], { ...box.env, TACK_STORE_URL: '' })
  expect([noUrl.code, noUrl.stderr]).toEqual([
    2,
    'tack: jobs need the shared database: set TACK_STORE_URL or plugins.store.url to a postgres:// URL\n',
  ])
  const unknown = await tack(['jobs', 'show', 'abcdef12'])
  expect([unknown.code, unknown.stderr]).toEqual([2, 'tack: no job abcdef12\n'])
}, 60_000)

test('plugins.fleet: defaults, a configured value reaching the job, a rejected value naming the key', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await withRepo(box)
  const tack = (args: string[]) => runTack(args, { env: box.env, cwd: box.root })
  const show = async (id: string) =>
    JSON.parse((await tack(['jobs', 'show', id, '--json'])).stdout) as JobView

  const plain = await tack(['jobs', 'submit', 'a', '--repo', repo])
  expect(plain.code, plain.stderr).toBe(0)
  expect((await show(plain.stdout.trim())).retryLimit).toBe(2)
  const config = join(box.root, 'config.yml')
  await writeFile(config, 'plugins:\n  fleet:\n    retryLimit: 5\n')
  const configured = await tack(['jobs', 'submit', 'b', '--repo', repo, '--config', config])
  expect((await show(configured.stdout.trim())).retryLimit).toBe(5)
  await writeFile(config, 'plugins:\n  fleet:\n    heartbeatSeconds: 5\n')
  const rejected = await tack(['jobs', 'submit', 'c', '--repo', repo, '--config', config])
  expect(rejected.code).toBe(2)
  expect(rejected.stderr).toContain('plugins.fleet.heartbeatSeconds')
  expect(JSON.parse((await tack(['jobs', 'list', '--json'])).stdout)).toHaveLength(2)
  // doctor (95-fleet.md F6): the queue is there, two jobs wait, and no worker was heard from.
  const doctor = await tack(['doctor'])
  expect(doctor.stdout).toMatch(/job queue\s+1 queue\(s\), 2 queued, 0 running\n/)
  expect(doctor.stdout).toMatch(
    /workers\s+\(none heard from recently\) — 2 job\(s\) wait: start one with `tack worker`\n/,
  )
}, 60_000)

test('cancel reaches a running session like Ctrl-C while `jobs logs` follows it; the worker goes on', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await withRepo(box)
  const script = join(box.root, 'script.json')
  await writeFile(
    script,
    JSON.stringify([{ kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'sleep 60' } }] }]),
  )
  const config = join(box.root, 'config.yml')
  await writeFile(config, 'plugins:\n  fleet: { leaseCheckMs: 200, pollIntervalMs: 100 }\n')
  const submitted = await runTack(
    ['jobs', 'submit', 'wait', '--repo', repo, '--model', `scripted/${script}`],
    {
      env: box.env,
      cwd: box.root,
    },
  )
  const id = submitted.stdout.trim()
  // `jobs logs` before any worker: it says the job waits, then follows the attempt once one takes it.
  const logs = spawn(process.execPath, [TACK_BIN, 'jobs', 'logs', id.slice(0, 8)], {
    env: box.env,
    cwd: box.root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let followed = ''
  logs.stdout.setEncoding('utf8').on('data', (d: string) => (followed += d))
  const logsDone = outcomeOf(logs)
  const waitUntil = Date.now() + 30_000
  while (!followed.includes('── job queued: waiting for a worker\n')) {
    if (Date.now() > waitUntil) {
      logs.kill()
      throw new Error(`jobs logs never said the job waits: ${followed}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  const worker = spawn(
    process.execPath,
    [
      TACK_BIN,
      'worker',
      '--name',
      'wc',
      '--config',
      config,
      '--scratch',
      join(box.root, 'scratch'),
      '--scripted-models',
    ],
    {
      env: box.env,
      cwd: box.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const workerDone = outcomeOf(worker)
  try {
    const deadline = Date.now() + 60_000
    while (!/tool\/call\s+.*sleep 60/.test(followed)) {
      if (Date.now() > deadline) throw new Error(`the running call never showed in jobs logs: ${followed}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    const cancelledAt = Date.now()
    const cancel = await runTack(['jobs', 'cancel', id], { env: box.env, cwd: box.root })
    expect(cancel.code, cancel.stderr).toBe(0)
    expect(cancel.stderr).toContain('its running turn ends like Ctrl-C')
    const ended = await logsDone
    expect(ended.code).toBe(0)
    expect(Date.now() - cancelledAt).toBeLessThan(15_000)
    expect(ended.stdout).toMatch(/── attempt 1 on wc, session [0-9a-f-]+\n/)
    expect(ended.stdout).toMatch(/turn\/end\s+\{"turn":1,"reason":\{"kind":"aborted"\}\}/)
    expect(ended.stdout).toContain('── job cancelled')
    const job = JSON.parse(
      (await runTack(['jobs', 'show', id, '--json'], { env: box.env, cwd: box.root })).stdout,
    ) as JobView
    expect(job.state).toBe('cancelled')
    expect(job.attempts).toMatchObject([{ attempt: 1, worker: 'wc', outcome: 'cancelled' }])
    const store = await PostgresSessionStore.open({ url })
    try {
      const { events } = await store.load(job.attempts[0].sessionId as string)
      expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'aborted' } } })
    } finally {
      await store.close()
    }
    expect(worker.exitCode).toBe(null)
  } finally {
    worker.kill('SIGTERM')
  }
  const stopped = await workerDone
  expect(stopped.code, stopped.stderr).toBe(0)
  expect(stopped.stderr).toContain('cancelled')
}, 90_000)

test("a job's scripted/ model reads the worker's disk: refused unless the worker has --scripted-models", async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await withRepo(box)
  // any file of the worker's: here one holding a secret, which must not reach the job's record
  const target = join(box.root, 'worker-secret.txt')
  await writeFile(target, 'WORKER_ONLY_a8f3c1\n')
  const config = join(box.root, 'config.yml')
  await writeFile(config, 'plugins:\n  fleet: { retryLimit: 0, pollIntervalMs: 100, leaseCheckMs: 200 }\n')
  const submitted = await runTack(
    ['jobs', 'submit', 'read it', '--repo', repo, '--model', `scripted/${target}`, '--config', config],
    { env: box.env, cwd: box.root },
  )
  expect(submitted.code, submitted.stderr).toBe(0)
  const id = submitted.stdout.trim()
  const worker = spawn(
    process.execPath,
    [TACK_BIN, 'worker', '--name', 'ws', '--config', config, '--scratch', join(box.root, 'scratch')],
    { env: box.env, cwd: box.root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const workerDone = outcomeOf(worker)
  let job: JobView | undefined
  try {
    const deadline = Date.now() + 60_000
    for (;;) {
      const shown = await runTack(['jobs', 'show', id, '--json'], { env: box.env, cwd: box.root })
      job = JSON.parse(shown.stdout) as JobView
      if (job.state === 'failed' || Date.now() > deadline) break
      await new Promise((r) => setTimeout(r, 200))
    }
  } finally {
    worker.kill('SIGTERM')
  }
  expect(job?.state).toBe('failed')
  const record = JSON.stringify(job)
  expect(record).toContain('this worker does not play scripted/ models')
  expect(record).toContain('--scripted-models')
  expect(record).not.toContain('WORKER_ONLY')
  // the scripted model never ran: it writes its cursor beside the file it plays
  const { existsSync } = await import('node:fs')
  expect(existsSync(`${target}.cursor`)).toBe(false)
  const stopped = await workerDone
  expect(stopped.code, stopped.stderr).toBe(0)
}, 90_000)
