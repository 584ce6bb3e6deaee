// Jobs against a real PostgreSQL (95-fleet.md F2–F4): submit in one transaction, the read API, the
// worker loop with its leases, cancel reaching a running session, a repository that cannot be cloned.
// The session here is a small runner that edits the checkout; the real session (tack's library) runs in
// apps/tack/test/e2e-fleet.test.ts.
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import {
  cancelJob,
  followJobs,
  checkJob,
  type Fleet,
  FleetConfig,
  getJob,
  listJobs,
  openFleet,
  parseJobLines,
  retryJob,
  type SessionRunner,
  submitJobs,
  Worker,
} from '../src/index.ts'
import { makeRepo } from './fixtures.ts'

let cluster: ThrowawayCluster
let repo: string
beforeAll(async () => {
  cluster = await startThrowawayCluster()
  repo = makeRepo()
}, 60_000)
afterAll(() => cluster?.stop())

const submitOptions = { retryLimit: 0, heartbeatSeconds: 10, maxJobMinutes: 5, submittedBy: 'test' }
const config = FleetConfig.parse({ leaseCheckMs: 200, pollIntervalMs: 100, gracefulStopMs: 2000 })

/** Writes `<task>.txt` into the checkout; a task starting with "wait" runs until aborted. */
function editingRunner(started: string[]): SessionRunner {
  let n = 0
  return {
    async start(o) {
      const sessionId = `s${++n}`
      started.push(o.task)
      writeFileSync(join(o.cwd, `${o.task.replace(/\W/g, '_')}.txt`), `${o.task}\n`)
      o.onEvent()
      let abort: (reason: string) => void = () => {}
      const aborted = new Promise<string>((resolve) => {
        abort = resolve
      })
      const result = o.task.startsWith('wait')
        ? aborted.then(() => ({ exitReason: 'aborted', finalText: '', usage: {} }))
        : Promise.resolve({
            exitReason: 'completed',
            finalText: `did ${o.task}`,
            usage: { inputTokens: 3 },
            costUsd: 0.01,
          })
      return { sessionId, abort, result }
    },
  }
}

async function until<T>(what: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await what()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function fresh(): Promise<Fleet> {
  return openFleet(await cluster.createDatabase())
}

test('a batch with a bad line submits nothing and names the line', async () => {
  const fleet = await fresh()
  try {
    const text = `{"task": "one", "repo": "${repo}"}\n\n{"task": "  ", "repo": "${repo}"}\n`
    expect(() => parseJobLines(text, 'tasks.jsonl', '/')).toThrow(
      'tasks.jsonl line 3: the task is empty (nothing submitted)',
    )
    expect(() => parseJobLines('{"task": "x", "repo": "/r", "colour": 1}', 'f', '/')).toThrow(
      'f line 1: unknown key "colour"',
    )
    // Labels as a string or a list are named as such, not as labels 0, 1, 2… from their characters.
    for (const labels of ['"os=linux"', '["os=linux"]'])
      expect(() =>
        parseJobLines(`{"task": "x", "labels": ${labels}}`, 'f', '/', { repo, labels: { gpu: '1' } }),
      ).toThrow('f line 1: labels must be an object of "key": "value"')
    const specs = parseJobLines(`{"task": "a"}\n{"task": "b", "labels": {"os": "linux"}}\n`, 't', '/', {
      repo,
    })
    expect(specs.map((s) => [s.task, s.repo, s.labels])).toEqual([
      ['a', repo, {}],
      ['b', repo, { os: 'linux' }],
    ])
    const ids = await submitJobs(fleet, specs, submitOptions)
    const jobs = await listJobs(fleet)
    expect(jobs.map((j) => j.id).sort()).toEqual([...ids].sort())
    expect(jobs.every((j) => j.state === 'queued')).toBe(true)
    expect((await getJob(fleet, ids[1].slice(0, 8))).queue).toBe('tack-jobs/os/linux')
    await expect(getJob(fleet, 'ffffffff')).rejects.toThrow('no job ffffffff')
  } finally {
    await fleet.close()
  }
})

test('a worker runs jobs in fresh checkouts, stores the diff, and only takes the labels it offers', async () => {
  const fleet = await fresh()
  const scratch = mkdtempSync(join(tmpdir(), 'tack-scratch-'))
  const started: string[] = []
  const worker = new Worker({
    fleet,
    runner: editingRunner(started),
    name: 'w1',
    concurrency: 2,
    labels: { os: 'linux' },
    scratchDir: scratch,
    config,
    log: () => {},
  })
  try {
    const [plain, onBranch, linux, gpu] = await submitJobs(
      fleet,
      [
        checkJob({ task: 'plain', repo }, '/'),
        checkJob({ task: 'branch', repo, ref: 'other' }, '/'),
        checkJob({ task: 'linux', repo, labels: { os: 'linux' } }, '/'),
        checkJob({ task: 'gpu', repo, labels: { gpu: 'yes' } }, '/'),
      ],
      submitOptions,
    )
    const running = worker.run()
    const done = await until(async () => {
      const jobs = await Promise.all([plain, onBranch, linux].map((id) => getJob(fleet, id)))
      return jobs.every((j) => j.state === 'done') ? jobs : undefined
    })
    expect(done[0].result?.diff).toContain('+++ b/plain.txt')
    expect(done[0].result?.diff).not.toContain('other.txt')
    expect(done[1].result?.diff).toContain('+++ b/branch.txt')
    expect(done[0].result).toMatchObject({
      exitReason: 'completed',
      finalText: 'did plain',
      costUsd: 0.01,
      attempt: 1,
    })
    expect(done[0].attempts).toMatchObject([{ attempt: 1, worker: 'w1', outcome: 'done' }])
    expect((await getJob(fleet, gpu)).state).toBe('queued')
    expect(started.sort()).toEqual(['branch', 'linux', 'plain'])
    await worker.stop()
    await running
    expect(readdirSync(scratch)).toEqual([])
  } finally {
    await fleet.close()
  }
}, 30_000)

test('cancel ends a running session like Ctrl-C; retry puts it back', async () => {
  const fleet = await fresh()
  const started: string[] = []
  const worker = new Worker({
    fleet,
    runner: editingRunner(started),
    name: 'w2',
    concurrency: 1,
    labels: {},
    scratchDir: mkdtempSync(join(tmpdir(), 'tack-scratch-')),
    config,
    log: () => {},
  })
  try {
    const [id] = await submitJobs(fleet, [checkJob({ task: 'wait forever', repo }, '/')], submitOptions)
    const running = worker.run()
    const active = await until(async () => {
      const j = await getJob(fleet, id)
      return j.current?.sessionId ? j : undefined
    })
    expect(active).toMatchObject({ state: 'active', current: { worker: 'w2', attempt: 1, sessionId: 's1' } })
    await cancelJob(fleet, id)
    const cancelled = await until(async () => {
      const j = await getJob(fleet, id)
      return j.attempts[0]?.outcome === 'cancelled' ? j : undefined
    })
    expect(cancelled.state).toBe('cancelled')
    await expect(cancelJob(fleet, id)).rejects.toThrow('is already cancelled')
    await worker.stop()
    await running
    await retryJob(fleet, id)
    expect((await getJob(fleet, id)).state).toBe('queued')
  } finally {
    await fleet.close()
  }
}, 30_000)

test('a repository that cannot be cloned fails the job with the reason, and the worker goes on', async () => {
  const fleet = await fresh()
  const worker = new Worker({
    fleet,
    runner: editingRunner([]),
    name: 'w3',
    concurrency: 1,
    labels: {},
    scratchDir: mkdtempSync(join(tmpdir(), 'tack-scratch-')),
    config,
    log: () => {},
  })
  try {
    const missing = join(tmpdir(), 'no-such-repo-here')
    expect(existsSync(missing)).toBe(false)
    const [bad, good] = await submitJobs(
      fleet,
      [checkJob({ task: 'x', repo: missing }, '/'), checkJob({ task: 'y', repo }, '/')],
      submitOptions,
    )
    const running = worker.run()
    const failed = await until(async () => {
      const j = await getJob(fleet, bad)
      return j.state === 'failed' ? j : undefined
    })
    expect(failed.reason).toMatch(/^cannot clone .*no-such-repo-here: /)
    expect(failed.attempts).toMatchObject([{ attempt: 1, outcome: 'failed' }])
    await until(async () => ((await getJob(fleet, good)).state === 'done' ? true : undefined))
    await worker.stop()
    await running
  } finally {
    await fleet.close()
  }
}, 30_000)

test('an unreachable database and a wrong password are one line each, without the password', async () => {
  const url = await cluster.createDatabase()
  await expect(openFleet(url.replace(cluster.password, 'wrong-pw'))).rejects.toThrow(
    /^the database at 127\.0\.0\.1:\d+\/\w+ refused the password \(set it in the URL, PGPASSWORD or ~\/\.pgpass\)$/,
  )
  const closed = url.replace(`:${cluster.port}/`, ':1/')
  const error = (await openFleet(closed).then(
    () => new Error('opened'),
    (e: Error) => e,
  )) as Error
  expect(error.message).toMatch(
    /^cannot reach the database at 127\.0\.0\.1:1\/\w+ \(ECONNREFUSED\): is PostgreSQL running there\?$/,
  )
  expect(error.message).not.toContain(cluster.password)
})

test('a submit wakes an idle worker at once (NOTIFY), not at its next poll', async () => {
  const fleet = await fresh()
  const worker = new Worker({
    fleet,
    runner: editingRunner([]),
    name: 'w4',
    concurrency: 1,
    labels: { new: 'queue' },
    scratchDir: mkdtempSync(join(tmpdir(), 'tack-scratch-')),
    // A poll a minute apart: only the notification can start the job within the test's time.
    config: FleetConfig.parse({ pollIntervalMs: 60_000, leaseCheckMs: 200 }),
    log: () => {},
  })
  try {
    const running = worker.run()
    await new Promise((r) => setTimeout(r, 500))
    const [id] = await submitJobs(
      fleet,
      [checkJob({ task: 'woken', repo, labels: { new: 'queue' } }, '/')],
      submitOptions,
    )
    await until(async () => ((await getJob(fleet, id)).state === 'queued' ? undefined : true), 10_000)
    await worker.stop()
    await running
  } finally {
    await fleet.close()
  }
}, 30_000)

test('followJobs calls back with every job first, then only the jobs that changed', async () => {
  const fleet = await fresh()
  const stop = new AbortController()
  const seen: string[][] = []
  try {
    const [a, b] = await submitJobs(
      fleet,
      [checkJob({ task: 'a', repo }, '/'), checkJob({ task: 'b', repo }, '/')],
      submitOptions,
    )
    const following = followJobs(
      fleet,
      (changed) => seen.push(changed.map((j) => `${j.spec.task}:${j.state}`).sort()),
      {
        intervalMs: 100,
        signal: stop.signal,
      },
    )
    await until(async () => (seen.length >= 1 ? true : undefined), 5000)
    expect(seen[0]).toEqual(['a:queued', 'b:queued'])
    await cancelJob(fleet, b)
    await until(async () => (seen.length >= 2 ? true : undefined), 5000)
    expect(seen[1]).toEqual(['b:cancelled'])
    expect(a).toBeTruthy()
    stop.abort()
    await following
  } finally {
    await fleet.close()
  }
})

test('a database that stops answering is one line while it lasts, and one when the worker takes jobs again', async () => {
  const url = await cluster.createDatabase()
  const fleet = await openFleet(url)
  const { default: pg } = await import('pg')
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  const lines: string[] = []
  const worker = new Worker({
    fleet,
    runner: editingRunner([]),
    name: 'w5',
    concurrency: 1,
    labels: {},
    scratchDir: mkdtempSync(join(tmpdir(), 'tack-scratch-')),
    config,
    log: (line) => lines.push(line),
  })
  const running = worker.run()
  try {
    // One job done first, so the worker has a queue to fetch from.
    const [id] = await submitJobs(fleet, [checkJob({ task: 'first', repo, labels: {} }, '/')], submitOptions)
    await until(async () => ((await getJob(fleet, id)).state === 'done' ? true : undefined))
    // The queue's schema gone (as a restore in progress or a revoked grant would make it): every take
    // fails the same way until it is back.
    await admin.query('ALTER SCHEMA pgboss RENAME TO pgboss_away')
    // pollIntervalMs is 100: some ten polls fail meanwhile.
    await new Promise((r) => setTimeout(r, 1500))
    await admin.query('ALTER SCHEMA pgboss_away RENAME TO pgboss')
    await until(async () => (lines.includes('tack worker: taking jobs again') ? true : undefined)).catch(
      (e) => {
        throw new Error(`${e}: ${lines.join(' / ')}`)
      },
    )
    const failures = lines.filter((l) => l.startsWith('tack worker: cannot take a job:'))
    expect(failures.length, lines.join('\n')).toBe(1)
    expect(failures[0]).toMatch(/\(retrying\)$/)
  } finally {
    await admin.query('ALTER SCHEMA pgboss_away RENAME TO pgboss').catch(() => {})
    await admin.end()
    await worker.stop()
    await running
    await fleet.close()
  }
}, 30_000)
