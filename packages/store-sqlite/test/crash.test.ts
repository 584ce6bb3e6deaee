// R1, first cut at store level: writer processes are SIGKILLed at random points while appending;
// afterwards every file opens, every session loads closed and well-formed, and every event an
// `append` had returned for is stored unchanged.
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { SessionEvent } from '@tack/session'
import { expectRecoveredSession } from '@tack/session/testing'
import { describe, expect, test } from 'vitest'
import { SqliteSessionStore } from '../src/index.ts'
import { tempDir } from './helpers.ts'

const WRITER = new URL('./crash-writer.ts', import.meta.url).pathname
const FILES = 5
const KILLS_PER_FILE = 11 // 55 kill points in all
const SEED = 20250101

function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const digest = (event: SessionEvent) => createHash('sha1').update(JSON.stringify(event)).digest('hex')

interface Ack {
  session: string
  seq: number
  digest: string
}

interface Run {
  acks: Ack[]
  ready: boolean
  signal: NodeJS.Signals | null
  code: number | null
  stderr: string
}

/**
 * Starts a writer and SIGKILLs it: either `delayMs` after spawn (possibly while it opens the file or
 * recovers the last turn) or `delayMs` after it reported ready (while it appends).
 */
function killedRun(
  db: string,
  seed: number,
  delayMs: number,
  fromSpawn: boolean,
  fresh = false,
  /** Start the kill delay at the first acknowledged append (writers contending for one file under load). */
  afterFirstAck = false,
): Promise<Run> {
  // process.execPath is the Node running this test (the repo's Node 24, with node:sqlite).
  const args = [WRITER, db, String(seed), ...(fresh ? ['fresh'] : [])]
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const run: Run = { acks: [], ready: false, signal: null, code: null, stderr: '' }
  let buffered = ''
  let timer: NodeJS.Timeout | undefined
  const kill = () => {
    timer ??= setTimeout(() => child.kill('SIGKILL'), delayMs)
  }
  child.stdout?.setEncoding('utf8')
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) {
      const [kind, session, seq, hash] = line.split(' ')
      if (kind === 'ready') {
        run.ready = true
        if (!fromSpawn && !afterFirstAck) kill()
      } else if (kind === 'ack') {
        run.acks.push({ session, seq: Number(seq), digest: hash })
        if (afterFirstAck) kill()
      }
    }
  })
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    run.stderr += chunk
  })
  if (fromSpawn) kill()
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      run.code = code
      run.signal = signal
      resolve(run)
    })
  })
}

interface Verdict {
  sessions: number
  recovered: number
}

/** Opens the file in this process and checks every session and every acknowledged event. */
async function verify(db: string, acks: readonly Ack[]): Promise<Verdict> {
  const store = SqliteSessionStore.open({ path: db })
  const verdict: Verdict = { sessions: 0, recovered: 0 }
  try {
    const logs = new Map<string, readonly SessionEvent[]>()
    for (const summary of await store.list()) {
      // Well-formed and closed (seqs, nesting and pairing hold; no turn or step left open), and the
      // recovery was durable: loading again appends nothing.
      const { events } = await expectRecoveredSession(store, summary.id)
      logs.set(summary.id, events)
      verdict.sessions++
      verdict.recovered += events.filter(
        (e) => e.type === 'turn/end' && (e as SessionEvent<'turn/end'>).data.reason.kind === 'interrupted',
      ).length
    }
    // Nothing an append returned for is missing or changed.
    for (const ack of acks) {
      const events = logs.get(ack.session)
      expect(events, `session ${ack.session}`).toBeDefined()
      expect(events?.[ack.seq] && digest(events[ack.seq]), `${ack.session} seq ${ack.seq}`).toBe(ack.digest)
    }
  } finally {
    await store.close()
  }
  return verdict
}

describe('R1 store-level crash safety', () => {
  test(`R1 writers SIGKILLed at ${FILES * KILLS_PER_FILE} random points lose nothing acknowledged and load closed`, {
    timeout: 300_000,
  }, async () => {
    const dir = tempDir('tack-r1-')
    const random = rng(SEED)
    // Each file gets its own schedule, drawn up front so the run is reproducible from SEED.
    const plans = Array.from({ length: FILES }, (_, f) =>
      Array.from({ length: KILLS_PER_FILE }, (_, k) => {
        const fromSpawn = random() < 0.25
        return {
          seed: SEED + f * 100 + k,
          fromSpawn,
          delayMs: Math.floor(random() * (fromSpawn ? 600 : 80)),
          verifyAfter: random() < 0.4,
        }
      }),
    )
    const results = await Promise.all(
      plans.map(async (plan, f) => {
        const db = join(dir, `r1-${f}.db`)
        const acks: Ack[] = []
        const runs: Run[] = []
        for (const step of plan) {
          const run = await killedRun(db, step.seed, step.delayMs, step.fromSpawn)
          runs.push(run)
          acks.push(...run.acks)
          // Sometimes recover here; otherwise the next writer's own load recovers the cut turn.
          if (step.verifyAfter) await verify(db, acks)
        }
        return { runs, acks, verdict: await verify(db, acks) }
      }),
    )
    const runs = results.flatMap((r) => r.runs)
    // Every writer died by our SIGKILL, not by an error of its own.
    for (const run of runs) {
      expect(run.stderr).toBe('')
      expect(run.signal).toBe('SIGKILL')
    }
    expect(runs).toHaveLength(FILES * KILLS_PER_FILE)
    // The kills really landed while writing, and recovery really ran.
    expect(runs.filter((r) => r.ready && r.acks.length > 0).length).toBeGreaterThan(runs.length / 2)
    const acks = results.reduce((n, r) => n + r.acks.length, 0)
    const recovered = results.reduce((n, r) => n + r.verdict.recovered, 0)
    expect(acks).toBeGreaterThan(100)
    expect(recovered).toBeGreaterThan(0)
    for (const r of results) expect(r.verdict.sessions).toBeGreaterThan(0)
  })

  test('R1 three writers share one file at once (busy timeout serialises them); killed together, nothing acknowledged is lost', {
    timeout: 120_000,
  }, async () => {
    const db = join(tempDir('tack-r1-shared-'), 'shared.db')
    const acks: Ack[] = []
    for (let round = 0; round < 3; round++) {
      // Each writer starts its own session; all append to the same file concurrently until killed.
      const runs = await Promise.all(
        [0, 1, 2].map((w) => killedRun(db, SEED + 1000 * round + w, 400 + 150 * w, false, true, true)),
      )
      for (const run of runs) {
        expect(run.stderr).toBe('') // no "database is locked", no SEQ_CONFLICT between writers
        expect(run.signal).toBe('SIGKILL')
        expect(run.acks.length).toBeGreaterThan(0)
        acks.push(...run.acks)
      }
    }
    const verdict = await verify(db, acks)
    expect(verdict.sessions).toBe(9)
    expect(verdict.recovered).toBeGreaterThan(0)
  })
})
