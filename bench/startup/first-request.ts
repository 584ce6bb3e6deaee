// Time from `tack run` start to its first model request (P1), by how Node's compile cache stands:
// `cold` (a fresh TACK_HOME: the first start after an install or upgrade, which also writes the cache),
// `warm` (one TACK_HOME for every run: a person's usual start) and `off` (NODE_DISABLE_COMPILE_CACHE=1),
// for this checkout and, given BENCH_BASELINE_BIN (another checkout's apps/tack/bin/tack.js), for that
// one too. Variants alternate run by run; medians of BENCH_RUNS (default 15). Not part of `npm run bench`
// (bench/overhead prints the figure against Codex); the measurements of docs/decisions/0325-… .
//
//   node scripts/build.ts && node bench/startup/first-request.ts
//   BENCH_VARIANTS=warm,off BENCH_BASELINE_BIN=/path/to/other/apps/tack/bin/tack.js node bench/startup/first-request.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { measureRun, median } from '../lib/measure-run.ts'
import { TACK_BIN } from '../lib/tack-run.ts'

const runs = Number(process.env.BENCH_RUNS ?? 15)
const caches = (process.env.BENCH_VARIANTS ?? 'cold,warm,off').split(',') as Array<'cold' | 'warm' | 'off'>
const bins: Record<string, string> = { this: TACK_BIN }
if (process.env.BENCH_BASELINE_BIN) bins.baseline = resolve(process.env.BENCH_BASELINE_BIN)

/** One TACK_HOME per launcher for the warm variant, kept across its runs. */
const warmHomes = Object.fromEntries(
  Object.keys(bins).map((name) => [name, mkdtempSync(join(tmpdir(), `tack-warm-${name}-`))]),
)

async function once(bin: string, cache: 'cold' | 'warm' | 'off', warmHome: string) {
  return measureRun({
    script: [{ kind: 'text', text: 'hello' }],
    async command({ root, baseUrl }) {
      const config = join(root, 'bench.yml')
      writeFileSync(
        config,
        `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${baseUrl}" }\n`,
      )
      return {
        program: bin,
        args: ['run', '--config', config, '--model', 'loop/bench', 'say hello'],
        env: {
          TACK_HOME: cache === 'warm' ? warmHome : join(root, 'tack-home'),
          ...(cache === 'off' ? { NODE_DISABLE_COMPILE_CACHE: '1' } : {}),
        },
      }
    },
  })
}

const first = new Map<string, number[]>()
const cpu = new Map<string, number[]>()
const push = (m: Map<string, number[]>, k: string, v: number) => m.set(k, [...(m.get(k) ?? []), v])
try {
  // one untimed run per launcher warms the warm variant's cache and the file system's
  for (const [name, bin] of Object.entries(bins)) await once(bin, 'warm', warmHomes[name])
  for (let i = 0; i < runs; i++) {
    for (const [name, bin] of Object.entries(bins)) {
      for (const cache of caches) {
        const r = await once(bin, cache, warmHomes[name])
        if (r.exitCode !== 0) throw new Error(`${name} ${cache}: tack run exited ${r.exitCode}`)
        push(first, `${name} ${cache}`, (r.firstRequestS ?? Number.NaN) * 1000)
        push(cpu, `${name} ${cache}`, (r.cpuS ?? Number.NaN) * 1000)
      }
    }
  }
} finally {
  for (const home of Object.values(warmHomes)) rmSync(home, { recursive: true, force: true })
}
console.log(`tack run to its first model request, medians of ${runs} alternated runs`)
for (const key of first.keys()) {
  const f = median(first.get(key) ?? []).toFixed(0)
  const c = median(cpu.get(key) ?? []).toFixed(0)
  console.log(
    `  ${key.padEnd(16)} first request after ${f.padStart(4)} ms   CPU (whole run) ${c.padStart(4)} ms`,
  )
}
