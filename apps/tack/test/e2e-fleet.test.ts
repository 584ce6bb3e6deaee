// Issue 28 item 2's acceptance through the real binary on a throw-away PostgreSQL (95-fleet.md F2–F4,
// docs/decisions/0350-jobs-and-worker.md): 30 jobs submitted as one batch, 3 `tack worker` processes;
// one worker is SIGKILLed mid-turn, one SIGTERMed mid-turn (a short gracefulStopMs, so its jobs are
// handed back). Every job ends exactly once, done; each killed attempt is marked interrupted and its
// session closed as interrupted, the next attempt's session naming it as attemptOf; each handed-back
// attempt's turn ended aborted; and every session's log matches what the scripted model was sent (its
// request log): no event lost or duplicated. Each job plays a script of its own (the scripted model's
// cursor is per file), which starts with a 1.5 s command, the window the signals land in.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Fleet, type JobView, listJobs, openFleet } from '@tack/fleet'
import { PostgresSessionStore } from '@tack/store-postgres'
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import type { SessionEvent } from '@tack/session'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { jobRepo } from './job-repo.ts'
import { outcomeOf, runTack, sandbox, TACK_BIN } from './helpers.ts'

const JOBS = 30

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

let diagnose: () => Promise<string> = async () => ''
async function until<T>(what: () => Promise<T | undefined>, ms: number, label: string): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await what()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}\n${await diagnose()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Jobs whose running attempt (with a session) is on `worker`. */
const runningOn = (jobs: readonly JobView[], worker: string) =>
  jobs.filter((j) => j.current?.worker === worker && j.current.sessionId)

interface Request {
  messages: Array<{ role: string; callId?: string; content: unknown }>
}

test('3 workers, 30 jobs, one SIGKILLed and one SIGTERMed mid-turn: each job ends once, nothing lost or duplicated, killed attempts marked', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const repo = await jobRepo(box, 'fleet\n')
  // Short leases so a killed worker's jobs come back within seconds; the store's writer lease lapses
  // before then, so the next attempt's read closes the killed session's turn.
  const config = join(box.root, 'config.yml')
  await writeFile(
    config,
    [
      'plugins:',
      '  fleet: { heartbeatSeconds: 10, retryLimit: 3, leaseCheckMs: 300, pollIntervalMs: 100, gracefulStopMs: 500 }',
      '  store: { leaseTimeoutMs: 2000 }',
      '',
    ].join('\n'),
  )
  const scripts: string[] = []
  const lines: string[] = []
  for (let i = 0; i < JOBS; i++) {
    const script = join(box.root, `job-${i}.json`)
    scripts.push(script)
    await writeFile(
      script,
      JSON.stringify([
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'sleep 1.5' } }] },
        {
          kind: 'tool-calls',
          calls: [{ name: 'write', args: { file_path: 'out.txt', content: `job ${i}\n` } }],
        },
        { kind: 'text', text: `done ${i}` },
        // Spare answers, should a later attempt start past the write.
        { kind: 'text', text: `done ${i}` },
        { kind: 'text', text: `done ${i}` },
      ]),
    )
    lines.push(JSON.stringify({ task: `job ${i}`, model: `scripted/${script}` }))
  }
  const tasks = join(box.root, 'tasks.jsonl')
  await writeFile(tasks, `${lines.join('\n')}\n`)
  const submitted = await runTack(['jobs', 'submit', '--from', tasks, '--repo', repo, '--config', config], {
    env: box.env,
    cwd: box.root,
  })
  expect(submitted.code, submitted.stderr).toBe(0)
  const ids = submitted.stdout.trim().split('\n')
  expect(ids).toHaveLength(JOBS)

  const workers = new Map<string, ChildProcess>()
  const exits = new Map<string, ReturnType<typeof outcomeOf>>()
  for (const name of ['w1', 'w2', 'w3']) {
    const home = join(box.root, `home-${name}`)
    await mkdir(home, { recursive: true })
    const child = spawn(
      process.execPath,
      [
        TACK_BIN,
        'worker',
        '--name',
        name,
        '--concurrency',
        '3',
        '--config',
        config,
        '--scratch',
        join(box.root, 'scratch'),
        '--scripted-models',
      ],
      {
        env: { ...box.env, HOME: home, TACK_HOME: join(home, '.tack') },
        cwd: box.root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let err = ''
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString()
    })
    const before = diagnose
    diagnose = async () => `${await before()}\n--- ${name}:\n${err.slice(-3000)}`
    workers.set(name, child)
    exits.set(name, outcomeOf(child))
    child.stderr?.resume()
  }
  const fleet: Fleet = await openFleet(url)
  const store = await PostgresSessionStore.open({ url })
  try {
    // w1 is killed while two of its sessions are in their first command.
    await until(
      async () => (runningOn(await listJobs(fleet), 'w1').length >= 2 ? true : undefined),
      25_000,
      'w1 running two jobs',
    )
    await new Promise((r) => setTimeout(r, 300))
    workers.get('w1')?.kill('SIGKILL')
    // w2 is stopped while it runs one; its 500 ms grace is shorter than the command.
    await until(
      async () => (runningOn(await listJobs(fleet), 'w2').length >= 1 ? true : undefined),
      60_000,
      'w2 running a job',
    )
    await new Promise((r) => setTimeout(r, 300))
    const stoppedAt = Date.now()
    workers.get('w2')?.kill('SIGTERM')
    const w2 = await exits.get('w2')
    expect(w2?.code, w2?.stderr).toBe(0)
    expect(Date.now() - stoppedAt).toBeLessThan(10_000)
    expect(w2?.stderr).toContain('handed back, not counted: worker w2 stopped (SIGTERM)')

    const jobs = await until(
      async () => {
        const all = await listJobs(fleet, { limit: JOBS })
        return all.length === JOBS && all.every((j) => j.state === 'done' || j.state === 'failed')
          ? all
          : undefined
      },
      120_000,
      'every job to end',
    )
    workers.get('w3')?.kill('SIGTERM')
    expect((await exits.get('w3'))?.code).toBe(0)
    expect((await exits.get('w1'))?.signal).toBe('SIGKILL')

    expect(jobs.map((j) => j.id).sort()).toEqual([...ids].sort())
    let killed = 0
    let handedBack = 0
    for (const job of jobs) {
      const i = Number(job.spec.task.replace('job ', ''))
      expect(job.state, JSON.stringify(job.attempts)).toBe('done')
      // Exactly once: one attempt done, numbered attempts with no gap, the result from that attempt.
      expect(job.attempts.filter((a) => a.outcome === 'done')).toHaveLength(1)
      expect(job.attempts.map((a) => a.attempt)).toEqual(job.attempts.map((_, k) => k + 1))
      const done = job.attempts.find((a) => a.outcome === 'done')
      expect(job.result?.attempt).toBe(done?.attempt)
      expect(job.result?.finalText).toBe(`done ${i}`)
      // A SIGTERM hand-back does not use up a retry (docs/decisions/0385-fleet-retries.md): the limit
      // grew by one for each; a killed attempt counts.
      expect(job.retryLimit).toBe(3 + job.attempts.filter((a) => a.outcome === 'handed-back').length)

      const logs = new Map<string, readonly SessionEvent[]>()
      for (const a of job.attempts)
        if (a.sessionId) logs.set(a.sessionId, (await store.load(a.sessionId)).events)
      let previous: string | undefined
      for (const a of job.attempts) {
        if (!a.sessionId) {
          // Killed between taking the job and starting its session: nothing ran, nothing to close.
          expect([a.worker, a.outcome]).toEqual(['w1', 'interrupted'])
          killed++
          continue
        }
        const events = logs.get(a.sessionId) ?? []
        const meta = events.find((e) => e.type === 'session/metadata')?.data as
          | Record<string, string>
          | undefined
        expect(meta?.jobId).toBe(job.id)
        expect(meta?.attemptOf).toBe(previous)
        previous = a.sessionId
        const end = events.filter((e) => e.type === 'turn/end').at(-1)?.data as { reason: { kind: string } }
        if (a.outcome === 'interrupted') {
          killed++
          expect(a.worker).toBe('w1')
          expect(a.reason).toMatch(/^lost: worker w1 stopped heartbeating/)
          expect(end?.reason.kind).toBe('interrupted')
        } else if (a.outcome === 'handed-back') {
          handedBack++
          expect(a.worker).toBe('w2')
          expect(end?.reason.kind).toBe('aborted')
        } else {
          expect(a.outcome).toBe('done')
          expect(end?.reason.kind).toBe('completed')
        }
        // The log is whole: seq 0..n-1, each once.
        expect(events.map((e) => e.seq)).toEqual(events.map((_, k) => k))
      }

      // Against the scripted model's request log: each session's requests begin with a lone user
      // message; each session asked once per step it started, and the last request of each carried
      // exactly the calls and results its log holds, in order.
      const requests = readFileSync(`${scripts[i]}.requests.jsonl`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Request)
      const groups: Request[][] = []
      for (const r of requests) {
        if (r.messages.length === 1) groups.push([])
        groups.at(-1)?.push(r)
      }
      const sessions = job.attempts.filter(
        (a) => a.sessionId && (logs.get(a.sessionId) ?? []).some((e) => e.type === 'step/start'),
      )
      expect(groups).toHaveLength(sessions.length)
      sessions.forEach((a, k) => {
        const events = logs.get(a.sessionId as string) ?? []
        expect(groups[k]).toHaveLength(events.filter((e) => e.type === 'step/start').length)
        const sent = (groups[k].at(-1)?.messages ?? [])
          .slice(1)
          .map((m) =>
            m.role === 'tool'
              ? `result ${m.callId}`
              : `call ${(m.content as Array<{ callId?: string }>)[0]?.callId}`,
          )
        const logged = events
          .filter((e) => e.type === 'tool/call' || (e.type === 'tool/result' && !isRecoveryResult(e)))
          .map(
            (e) => `${e.type === 'tool/call' ? 'call' : 'result'} ${(e.data as { callId: string }).callId}`,
          )
        const asked = a.outcome === 'done' ? logged : logged.slice(0, sent.length)
        expect(sent).toEqual(asked)
      })
      // The change is stored with the job.
      if (job.result?.diff) expect(job.result.diff).toContain(`+job ${i}`)
    }
    expect(killed).toBeGreaterThanOrEqual(2)
    expect(handedBack).toBeGreaterThanOrEqual(1)
    expect(existsSync(join(box.root, 'scratch', 'worker-w3'))).toBe(true)
  } finally {
    for (const w of workers.values()) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL')
    await store.close()
    await fleet.close()
  }
}, 240_000)

/** A result written by crash recovery or an abort (no model ever saw it). */
function isRecoveryResult(e: SessionEvent): boolean {
  const d = e.data as { isError?: boolean; error?: { code?: string } }
  return d.isError === true && (d.error?.code === 'INTERRUPTED' || d.error?.code === 'ABORTED')
}
