// P1 start-up: `tack --version` and `tack --help` against `node -e 0`, alternated in one run, ≥ 10 runs
// each; prints the medians and the ratios (budgets of 90-quality.md P1: ≤ 1.2× and ≤ 2×).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const TACK = fileURLToPath(new URL('../../apps/tack/bin/tack.js', import.meta.url))
const runs = Number(process.env.BENCH_RUNS ?? 20)

/**
 * `node` runs a script; `tack` runs the launcher as a person's shell does, through its `#!/bin/sh` line
 * (which starts node with its heap flag), so the figure includes that extra exec.
 */
function time(args: string[]): number {
  const start = process.hrtime.bigint()
  const [file, rest] = args[0] === TACK ? [TACK, args.slice(1)] : [process.execPath, args]
  const r = spawnSync(file, rest, { stdio: 'ignore' })
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`)
  return Number(process.hrtime.bigint() - start) / 1e6
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

export function measureStartup(n = runs): { node: number; version: number; help: number } {
  const node: number[] = []
  const version: number[] = []
  const help: number[] = []
  // warm the file cache once so the first sample is not an outlier of disk reads
  time(['-e', '0'])
  time([TACK, '--version'])
  for (let i = 0; i < n; i++) {
    node.push(time(['-e', '0']))
    version.push(time([TACK, '--version']))
    help.push(time([TACK, '--help']))
  }
  return { node: median(node), version: median(version), help: median(help) }
}

if (import.meta.main) {
  const r = measureStartup()
  const vr = r.version / r.node
  const hr = r.help / r.node
  console.log(`P1 start-up (${runs} alternated runs each, medians)`)
  console.log(`  node -e 0        ${r.node.toFixed(1)} ms`)
  console.log(
    `  tack --version   ${r.version.toFixed(1)} ms   ratio ${vr.toFixed(2)}×  (budget ≤ 1.20×) ${vr <= 1.2 ? 'ok' : 'OVER'}`,
  )
  console.log(
    `  tack --help      ${r.help.toFixed(1)} ms   ratio ${hr.toFixed(2)}×  (budget ≤ 2.00×) ${hr <= 2 ? 'ok' : 'OVER'}`,
  )
}
