// A session's start: `tack run` answering one text reply from the loopback model, CPU and time to the
// first model request, medians of BENCH_RUNS (default 20) alternated runs. Variants: this checkout run as
// a program (the launcher's flags, then the run-time heap flag of src/session-heap.ts); the same build
// with no old-space growth bound at all (`node --max-semi-space-size=8 --heap-growing-percent=0`, the
// floor); and BENCH_BASELINE_BIN (another checkout's bin/tack.js, copied next to this one so it runs
// this build) when given. Not part of `npm run bench`; docs/decisions/0068-heap-growth-and-step-cost.md.
//
//   BENCH_BASELINE_BIN=apps/tack/bin/old-tack.js node bench/startup/session.ts
import { resolve } from 'node:path'
import { median } from '../lib/measure-run.ts'
import { measureTackRun } from '../lib/tack-run.ts'

const runs = Number(process.env.BENCH_RUNS ?? 20)
// Resolved here: the run's cwd is its temporary workspace.
const baseline = process.env.BENCH_BASELINE_BIN && resolve(process.env.BENCH_BASELINE_BIN)
const variants: Record<string, { bin?: string; nodeFlags?: string[] }> = {
  'this checkout': {},
  'no growth bound': { nodeFlags: ['--max-semi-space-size=8', '--heap-growing-percent=0'] },
  ...(baseline ? { baseline: { bin: baseline } } : {}),
}
const cpu = new Map<string, number[]>()
const first = new Map<string, number[]>()
const push = (m: Map<string, number[]>, k: string, v: number) => m.set(k, [...(m.get(k) ?? []), v])
for (let i = 0; i < runs; i++) {
  for (const [name, variant] of Object.entries(variants)) {
    const r = await measureTackRun({
      script: [{ kind: 'text', text: 'hello' }],
      task: 'say hello',
      ...variant,
    })
    if (r.exitCode !== 0) throw new Error(`${name}: tack run exited ${r.exitCode}`)
    push(cpu, name, (r.cpuS ?? Number.NaN) * 1000)
    push(first, name, (r.firstRequestS ?? Number.NaN) * 1000)
  }
}
console.log(`tack run, one reply: medians of ${runs} alternated runs`)
for (const name of Object.keys(variants)) {
  const c = median(cpu.get(name) ?? []).toFixed(0)
  const f = median(first.get(name) ?? []).toFixed(0)
  console.log(`  ${name.padEnd(16)} CPU ${c.padStart(5)} ms   first request after ${f.padStart(5)} ms`)
}
