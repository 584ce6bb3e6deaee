// R1 first cut (90-quality): the real `tack run` process is SIGKILLed at ≥ 50 random points of a scripted
// session (mid-stream, mid-tool, between steps). Every session then loads with its turn closed and passes
// the structure checks, and the durability points held: a tool body that ran had its `tool/call` on disk,
// and a model request the server saw had its step and request header on disk.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SessionEvent } from '@tack/session'
import { checkLogStructure } from '@tack/session/invariants'
import { SqliteSessionStore } from '@tack/store-sqlite'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { sandbox, TACK_BIN } from './helpers.ts'

const STEPS = 6

function script(): LoopbackEntry[] {
  const entries: LoopbackEntry[] = []
  for (let i = 1; i <= STEPS; i++) {
    entries.push({
      kind: 'tool-calls',
      text: `step ${i}: running the check`,
      calls: [{ name: 'bash', args: { command: `sleep 0.03; touch marker-${i}; echo step ${i}` } }],
    })
  }
  entries.push({ kind: 'text', text: 'all steps ran' })
  return entries
}

/** Runs tack and kills it after `killAfterMs` (or lets it finish when that is larger than its run). */
async function runAndKill(killAfterMs: number) {
  const server = await startLoopbackServer({ script: script() })
  const box = await sandbox()
  const config = join(box.root, 'loop.yml')
  await writeFile(
    config,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  const child = spawn(
    process.execPath,
    [TACK_BIN, 'run', '--config', config, '--model', 'loop/m', 'run the steps'],
    {
      env: box.env,
      cwd: box.workspace,
      stdio: 'ignore',
    },
  )
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
  const outcome = await exited
  clearTimeout(timer)
  const requestsSeen = server.requests.length
  await server.close()
  return { box, outcome, requestsSeen }
}

function check(events: readonly SessionEvent[], workspace: string, requestsSeen: number) {
  checkLogStructure(events)
  // killed after the session was created but before its first event: an empty, valid log
  if (events.length === 0) {
    expect(requestsSeen).toBe(0)
    return
  }
  const last = events.at(-1)
  expect(last?.type).toBe('turn/end')
  // every tool body that ran (its marker exists) had its tool/call persisted first
  const calls = events
    .filter((e) => e.type === 'tool/call')
    .map((e) => String((e.data as { arguments: string }).arguments))
  for (let i = 1; i <= STEPS; i++) {
    if (existsSync(join(workspace, `marker-${i}`)))
      expect(calls.some((a) => a.includes(`marker-${i}`))).toBe(true)
  }
  // every request the server saw had its step and header persisted before it was sent
  const steps = events.filter((e) => e.type === 'step/start').length
  expect(steps).toBeGreaterThanOrEqual(requestsSeen)
  expect(events.some((e) => e.type === 'request/header') || requestsSeen === 0).toBe(true)
  // a tool call is never left without a result
  const ids = new Set(
    events.filter((e) => e.type === 'tool/call').map((e) => (e.data as { callId: string }).callId),
  )
  for (const e of events) if (e.type === 'tool/result') ids.delete((e.data as { callId: string }).callId)
  expect([...ids]).toEqual([])
}

test('R1 tack run SIGKILLed at 50+ random points: every session loads closed, invariant-clean, durable', async () => {
  // One full run first, to spread the kill points over a real run's duration.
  const start = Date.now()
  const full = await runAndKill(60_000)
  const duration = Date.now() - start
  expect(full.outcome.code).toBe(0)

  const kills = 52
  let killed = 0
  let interrupted = 0
  let loaded = 0
  // Kill points spread evenly over 95% of a full run with jitter, so start-up, streams, tools and step
  // gaps are all hit; a run that happens to finish first does not count, so keep going until 52 kills.
  for (let i = 0; killed < kills && i < kills * 3; i++) {
    const at = Math.round((((i % kills) + Math.random()) / kills) * duration * 0.95)
    const { box, outcome, requestsSeen } = await runAndKill(at)
    if (outcome.signal === 'SIGKILL') killed++
    const db = join(box.tackHome, 'sessions.db')
    if (!existsSync(db)) continue
    const store = SqliteSessionStore.open({ path: db })
    try {
      for (const summary of await store.list()) {
        const { events } = await store.load(summary.id)
        check(events, box.workspace, requestsSeen)
        if ((events.at(-1)?.data as { reason?: { kind: string } })?.reason?.kind === 'interrupted')
          interrupted++
        // a second load appends nothing (SL-25)
        expect((await store.load(summary.id)).events.length).toBe(events.length)
        loaded++
      }
    } finally {
      await store.close()
    }
  }
  expect(killed).toBeGreaterThanOrEqual(kills)
  expect(loaded).toBeGreaterThan(0)
  expect(interrupted).toBeGreaterThan(0)
}, 600_000)
