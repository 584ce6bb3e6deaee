// Long sessions (issue 12 item 6): tack and the pi coding agent side by side on a scripted 20-read
// and a 200-read session in one run, through the real binaries against a loopback model server that
// answers instantly. Each read returns a small module (six lines), so the 200-read history is about
// 60 KB of text: whatever grows beyond that is the harness's own cost. Budgets: tack's peak RSS at
// 200 reads ≤ 1.1× its 20-read figure (memory flat in history length), and tack's CPU per extra
// request ((CPU₂₀₀ − CPU₂₀) / 180) ≤ 0.5× pi's. Findings: docs/decisions/0066-flat-memory.md,
// docs/decisions/0067-long-session-cost.md, docs/decisions/0068-heap-growth-and-step-cost.md (and its
// probes of single mechanisms: flush.ts, http-client.ts).
//
//   node bench/long/run.ts            (BENCH_RUNS=n for medians of n alternated runs, default 3;
//                                      BENCH_BASELINE_BIN=<another checkout's bin/tack.js> adds that
//                                      build as `base`, for before/after figures from the same run)
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoopbackEntry } from '@tack/llm/testing'
import { median, type RunMeasure } from '../lib/measure-run.ts'
import { measurePiRun, piCli } from '../lib/pi-run.ts'
import { measureTackRun } from '../lib/tack-run.ts'

export const SHORT = 20
export const LONG = 200
const RSS_GROWTH_BUDGET = 1.1
const CPU_PER_REQUEST_BUDGET = 0.5
const TASK = 'read every module under src'

/** `reads` read calls, one per step, then a closing text; `pathKey` is the agent's read-argument name. */
export function readSession(reads: number, pathKey: string): LoopbackEntry[] {
  const script: LoopbackEntry[] = []
  for (let i = 1; i <= reads; i++) {
    script.push({
      kind: 'tool-calls',
      calls: [{ name: 'read', args: { [pathKey]: `src/module-${i}.ts` } }],
      usage: { inputTokens: 1000 + i * 60, outputTokens: 20 },
    })
  }
  script.push({ kind: 'text', text: 'I read every module.', usage: { inputTokens: 1000, outputTokens: 10 } })
  return script
}

export async function prepareSmallModules(workspace: string): Promise<void> {
  await mkdir(join(workspace, 'src'), { recursive: true })
  for (let i = 1; i <= LONG; i++) {
    const body = Array.from({ length: 6 }, (_, l) => `export const value${l} = ${i * 1000 + l}`).join('\n')
    await writeFile(join(workspace, 'src', `module-${i}.ts`), `${body}\n`)
  }
}

type Agent = 'tack' | 'pi' | 'base'
const BASELINE_BIN = process.env.BENCH_BASELINE_BIN
const tackRun = (reads: number, bin?: string) =>
  measureTackRun({
    script: readSession(reads, 'file_path'),
    task: TASK,
    prepare: prepareSmallModules,
    // The default step cap must not end the long session (issue 12 item 5 raises it anyway).
    pluginsYaml: '  agent:\n    maxStepsPerTurn: 1000\n',
    ...(bin ? { bin } : {}),
  })
const AGENTS: Partial<Record<Agent, (reads: number) => Promise<RunMeasure>>> = {
  tack: (reads) => tackRun(reads),
  pi: (reads) =>
    measurePiRun({ script: readSession(reads, 'path'), task: TASK, prepare: prepareSmallModules }),
  ...(BASELINE_BIN ? { base: (reads: number) => tackRun(reads, BASELINE_BIN) } : {}),
}

interface Figures {
  cpuS: number
  rssMb: number
  ok: boolean
}

if (import.meta.main) {
  try {
    piCli()
  } catch {
    console.error(
      'bench/long: the pi coding agent (@mariozechner/pi-coding-agent) is not installed; run `npm install`',
    )
    process.exit(1)
  }
  const runs = Number(process.env.BENCH_RUNS ?? 3)
  const samples = new Map<string, RunMeasure[]>()
  // Alternated, so load on the machine falls on both agents alike.
  for (let i = 0; i < runs; i++) {
    for (const reads of [SHORT, LONG]) {
      for (const agent of Object.keys(AGENTS) as Agent[]) {
        const key = `${agent}/${reads}`
        const run = AGENTS[agent]
        if (run) samples.set(key, [...(samples.get(key) ?? []), await run(reads)])
      }
    }
  }
  const figures = (agent: Agent, reads: number): Figures => {
    const list = samples.get(`${agent}/${reads}`) ?? []
    return {
      cpuS: median(list.map((r) => r.cpuS ?? Number.NaN)),
      rssMb: median(list.map((r) => r.maxRssMb ?? Number.NaN)),
      ok: list.every((r) => r.exitCode === 0 && r.requests.length === reads + 1),
    }
  }
  const extra = LONG - SHORT
  const rows = (Object.keys(AGENTS) as Agent[]).map((agent) => {
    const short = figures(agent, SHORT)
    const long = figures(agent, LONG)
    return {
      agent,
      short,
      long,
      rssGrowth: long.rssMb / short.rssMb,
      msPerRequest: ((long.cpuS - short.cpuS) / extra) * 1000,
    }
  })
  const [tack, pi] = rows
  const ok = rows.every((r) => r.short.ok && r.long.ok)
  const cpuRatio = tack.msPerRequest / pi.msPerRequest
  console.log(
    `Long sessions: scripted ${SHORT}- and ${LONG}-read sessions, tack and pi alternated, medians of ${runs} runs${ok ? '' : ' (A RUN FAILED)'}`,
  )
  console.log('           CPU@20   CPU@200   RSS@20   RSS@200   RSS growth   CPU per extra request')
  for (const r of rows) {
    console.log(
      `  ${r.agent.padEnd(6)} ${r.short.cpuS.toFixed(2).padStart(6)} s ${r.long.cpuS.toFixed(2).padStart(6)} s ${r.short.rssMb.toFixed(0).padStart(6)} MB ${r.long.rssMb.toFixed(0).padStart(6)} MB ${r.rssGrowth.toFixed(2).padStart(9)}×  ${r.msPerRequest.toFixed(1).padStart(9)} ms`,
    )
  }
  const rssOk = tack.rssGrowth <= RSS_GROWTH_BUDGET
  const cpuOk = cpuRatio <= CPU_PER_REQUEST_BUDGET
  console.log(
    `  tack RSS@200 / RSS@20         ${tack.rssGrowth.toFixed(2)}×   budget ≤ ${RSS_GROWTH_BUDGET}× ${rssOk ? 'ok' : 'OVER'}`,
  )
  console.log(
    `  tack / pi CPU per request     ${cpuRatio.toFixed(2)}×   budget ≤ ${CPU_PER_REQUEST_BUDGET}× ${cpuOk ? 'ok' : 'OVER'}`,
  )
  console.log(
    JSON.stringify({
      id: 'long',
      tack: {
        ...tack.short,
        rssMb200: tack.long.rssMb,
        cpuS200: tack.long.cpuS,
        msPerRequest: tack.msPerRequest,
      },
      pi: { ...pi.short, rssMb200: pi.long.rssMb, cpuS200: pi.long.cpuS, msPerRequest: pi.msPerRequest },
      rssGrowth: tack.rssGrowth,
      cpuRatio,
      ok,
    }),
  )
  if (!ok) process.exitCode = 1
}
