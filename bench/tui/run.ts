// P8 interactive: an idle interactive session's RSS (budget ≤ 100 MB) and keystroke-to-screen latency
// while a long answer streams (budget: median ≤ 16 ms), each agent in a real pseudo-terminal. Latency is
// the time from writing a key to the pty until the output chunk that puts it on the screen arrives.
// Same-run baselines: bare `node` idle, and the pi coding agent's interactive mode (a dev dependency).
//
//   node bench/tui/run.ts        (BENCH_KEYS=n keystrokes per agent, default 40)
import { cpus, loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { median } from '../lib/measure-run.ts'
import type { PtySession } from '../../apps/tack/test/pty/terminal.ts'
import { type InteractiveAgent, PI, startIdleNode, TACK } from './agents.ts'
import { startStreamServer } from './stream-server.ts'

const RSS_BUDGET_MB = 100
const LATENCY_BUDGET_MS = 16
const KEYS = Number(process.env.BENCH_KEYS ?? 40)
const IDLE_KEYS = 10
/** Distinct uppercase letters: the streamed answer is lowercase, so an echo is never answer text. */
const LETTERS = 'ABCDEFGHIKLMNOPRSTUVW'
/** Typed (untimed) before each round, so the round's expected input line is unique on the screen. */
const PREFIX = 'QZJ'
const READY_MS = 90_000

const mb = (bytes: number) => bytes / 1024 / 1024

/** Highest RSS over a few samples after `idleMs` of nothing happening. */
async function idleRss(term: PtySession, idleMs: number): Promise<number> {
  await sleep(idleMs)
  let max = 0
  for (let i = 0; i < 5; i++) {
    max = Math.max(max, term.rss())
    await sleep(200)
  }
  return max
}

/** Starts a long streamed answer, then times `KEYS` keystrokes typed into the prompt box meanwhile. */
async function streamingLatency(term: PtySession): Promise<number[]> {
  term.type('go')
  await term.waitFor('go')
  term.press('enter')
  await term.waitFor('lorem ipsum', { timeoutMs: 30_000, where: 'all' })
  return typingLatency(term, KEYS)
}

/** Times `count` keystrokes into the prompt box, in rounds that each start with PREFIX and end cleared. */
async function typingLatency(term: PtySession, count: number): Promise<number[]> {
  const samples: number[] = []
  while (samples.length < count) {
    term.type(PREFIX)
    await term.waitFor(PREFIX)
    let typed = PREFIX
    for (const letter of LETTERS) {
      if (samples.length >= count) break
      typed += letter
      samples.push(await term.timeKeys(letter, typed, 10_000))
      await sleep(30) // a fast typist's pace, so keys arrive one by one
    }
    term.type('\x7f'.repeat(typed.length))
    await term.waitForGone(PREFIX)
  }
  return samples
}

interface Latency {
  median: number
  p90: number
  n: number
}

interface Figures {
  rssMb: number
  /** Typing into an idle session: the floor that load alone sets. */
  idle?: Latency
  latency?: Latency
  error?: string
}

function summary(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b)
  return { median: median(samples), p90: sorted[Math.floor(sorted.length * 0.9)], n: samples.length }
}

async function measure(agent: InteractiveAgent): Promise<Figures> {
  const server = await startStreamServer({ words: 4000, intervalMs: 8 })
  const term = await agent.start(server.baseUrl)
  try {
    await term.waitFor(agent.ready, READY_MS)
    const rssMb = mb(await idleRss(term, 3000))
    let idle: Latency | undefined
    try {
      idle = summary(await typingLatency(term, IDLE_KEYS))
      return { rssMb, idle, latency: summary(await streamingLatency(term)) }
    } catch (error) {
      return { rssMb, ...(idle ? { idle } : {}), error: firstLine(error) }
    }
  } catch (error) {
    return { rssMb: Number.NaN, error: (error as Error).message }
  } finally {
    await term.close()
    await server.close()
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]
}

if (import.meta.main) {
  const node = startIdleNode()
  await sleep(500)
  const nodeMb = mb(await idleRss(node, 1000))
  await node.close()
  const tack = await measure(TACK)
  const pi = await measure(PI)
  const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a')
  // Latency is scheduling as much as rendering: say how busy the machine was.
  console.log(
    `P8 interactive (${KEYS} keystrokes per agent while a long answer streams; load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
  )
  console.log(`  idle RSS   node ${fmt(nodeMb)} MB   pi ${fmt(pi.rssMb)} MB`)
  console.log(
    `  idle RSS   tack ${fmt(tack.rssMb)} MB   ${fmt(tack.rssMb / nodeMb, 2)}× node, ${fmt(tack.rssMb / pi.rssMb, 2)}× pi  (budget ≤ ${RSS_BUDGET_MB} MB) ${tack.rssMb <= RSS_BUDGET_MB ? 'ok' : 'OVER'}`,
  )
  for (const [name, f] of [
    ['pi', pi],
    ['tack', tack],
  ] as const) {
    if (f.error) {
      console.log(`  ${name}: ${f.error}`)
      if (name === 'tack') process.exitCode = 1
      continue
    }
    if (f.idle)
      console.log(
        `  keystroke→screen  ${name.padEnd(4)} idle       median ${fmt(f.idle.median)} ms  p90 ${fmt(f.idle.p90)} ms`,
      )
    if (!f.latency) continue
    const verdict =
      name === 'tack'
        ? `  (budget median ≤ ${LATENCY_BUDGET_MS} ms) ${f.latency.median <= LATENCY_BUDGET_MS ? 'ok' : 'OVER'}`
        : ''
    console.log(
      `  keystroke→screen  ${name.padEnd(4)} streaming  median ${fmt(f.latency.median)} ms  p90 ${fmt(f.latency.p90)} ms${verdict}`,
    )
  }
  if (tack.latency && pi.latency)
    console.log(`  latency ratio tack/pi ${fmt(tack.latency.median / pi.latency.median, 2)}×`)
}
