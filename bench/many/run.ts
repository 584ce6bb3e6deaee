// P10 many sessions in one process (90-quality.md): one real `tack acp` process serves N scripted 20-read
// sessions at once (N = 1, 10, 50), as it serves several editor sessions; the baseline is the same 50
// sessions one after another in one process, measured in the same run. Prints the process's peak RSS and
// its CPU per session; budget: 50 concurrent sessions in ≤ 1 GB peak RSS and ≤ 2× the CPU of the 50
// sequential ones. Besides, informational: 50 sessions one after another, each in a folder of its own and
// closed when done (a fleet worker's jobs), whose peak shows what a folder's boot leaves behind.
// Rounds alternate which of the compared runs goes first; figures are medians over rounds, the CPU ratio
// the median of each round's own ratio. `BENCH_RUNS` sets the rounds (default 3).
import { median } from '../lib/measure-run.ts'
import { READS } from '../overhead/run.ts'
import { type ManyMeasure, measureAcpSessions } from './acp-sessions.ts'

const BUDGET_RSS_MB = 1024
const BUDGET_CPU_RATIO = 2
const SIZES = [1, 10, 50] as const
const BASELINE = 50

interface Round {
  readonly concurrent: Map<number, ManyMeasure>
  readonly sequential: ManyMeasure
  readonly jobs: ManyMeasure
}

async function round(index: number): Promise<Round> {
  const concurrent = new Map<number, ManyMeasure>()
  const sequential = () => measureAcpSessions({ sessions: BASELINE, schedule: 'sequential' })
  const together = (n: number) => measureAcpSessions({ sessions: n, schedule: 'concurrent' })
  let baseline: ManyMeasure
  // The compared pair (50 concurrent, 50 sequential) alternates which goes first.
  if (index % 2 === 0) {
    concurrent.set(BASELINE, await together(BASELINE))
    baseline = await sequential()
  } else {
    baseline = await sequential()
    concurrent.set(BASELINE, await together(BASELINE))
  }
  for (const n of SIZES) if (!concurrent.has(n)) concurrent.set(n, await together(n))
  const jobs = await measureAcpSessions({
    sessions: BASELINE,
    schedule: 'sequential',
    folders: 'own',
    close: true,
  })
  return { concurrent, sequential: baseline, jobs }
}

const complete = (m: ManyMeasure) => m.completed === m.sessions && m.permissionRequests === 0

if (import.meta.main) {
  const runs = Number(process.env.BENCH_RUNS ?? 3)
  const rounds: Round[] = []
  for (let i = 0; i < runs; i++) rounds.push(await round(i))
  const all = rounds.flatMap((r) => [...r.concurrent.values(), r.sequential, r.jobs])
  const ok = all.every(complete)
  const rssOf = (pick: (r: Round) => ManyMeasure) => median(rounds.map((r) => pick(r).peakRssMb))
  const cpuPerSession = (pick: (r: Round) => ManyMeasure) =>
    median(rounds.map((r) => pick(r).sessionsCpuS / pick(r).sessions))
  const wallOf = (pick: (r: Round) => ManyMeasure) => median(rounds.map((r) => pick(r).wallS))
  const ratio = median(
    rounds.map((r) => (r.concurrent.get(BASELINE) as ManyMeasure).sessionsCpuS / r.sequential.sessionsCpuS),
  )
  const peak50 = rssOf((r) => r.concurrent.get(BASELINE) as ManyMeasure)
  const rssOk = peak50 <= BUDGET_RSS_MB
  const cpuOk = ratio <= BUDGET_CPU_RATIO

  console.log(
    `P10 many sessions in one \`tack acp\` process: scripted ${READS + 1}-request sessions (${READS} reads), medians of ${runs} rounds${ok ? '' : ' (A SESSION FAILED)'}`,
  )
  console.log('  sessions   schedule     peak RSS    CPU per session   wall')
  const row = (label: string, schedule: string, pick: (r: Round) => ManyMeasure) =>
    console.log(
      `  ${label.padStart(8)}   ${schedule.padEnd(11)} ${rssOf(pick).toFixed(0).padStart(6)} MB   ${(cpuPerSession(pick) * 1000).toFixed(0).padStart(8)} ms      ${wallOf(pick).toFixed(1)} s`,
    )
  for (const n of SIZES) row(String(n), 'concurrent', (r) => r.concurrent.get(n) as ManyMeasure)
  row(String(BASELINE), 'sequential', (r) => r.sequential)
  row(String(BASELINE), 'jobs', (r) => r.jobs)
  console.log('  (jobs: one after another, each in a folder of its own, closed when done — a fleet worker)')
  console.log(
    `  50 concurrent: peak RSS ${peak50.toFixed(0)} MB   budget ≤ ${BUDGET_RSS_MB} MB ${rssOk ? 'ok' : `OVER by ${(peak50 - BUDGET_RSS_MB).toFixed(0)} MB`}`,
  )
  console.log(
    `  50 concurrent: CPU ${ratio.toFixed(2)}× the 50 sequential   budget ≤ ${BUDGET_CPU_RATIO}× ${cpuOk ? 'ok' : `OVER by ${(ratio - BUDGET_CPU_RATIO).toFixed(2)}×`}`,
  )
  console.log(
    JSON.stringify({
      id: 'P10',
      peakRssMb: Object.fromEntries(SIZES.map((n) => [n, rssOf((r) => r.concurrent.get(n) as ManyMeasure)])),
      cpuPerSessionS: Object.fromEntries(
        SIZES.map((n) => [n, cpuPerSession((r) => r.concurrent.get(n) as ManyMeasure)]),
      ),
      sequential: {
        peakRssMb: rssOf((r) => r.sequential),
        cpuPerSessionS: cpuPerSession((r) => r.sequential),
      },
      jobs: { peakRssMb: rssOf((r) => r.jobs), cpuPerSessionS: cpuPerSession((r) => r.jobs) },
      cpuRatio: ratio,
      budgetMet: rssOk && cpuOk,
      ok,
    }),
  )
  if (!ok) process.exitCode = 1
}
