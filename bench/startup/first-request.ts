// Time from `tack run` start to its first model request (P1), by how Node's compile cache stands:
// `cold` (a fresh TACK_HOME: the first start after an install or upgrade, which also writes the cache),
// `warm` (one TACK_HOME for every run: a person's usual start) and `off` (NODE_DISABLE_COMPILE_CACHE=1),
// for this checkout's launcher or another one (a copy of an older `bin/tack.js` put next to this one runs
// this build its own way). Variants alternate run by run; medians of BENCH_RUNS (default 15). Not part of
// `npm run bench` (bench/overhead prints the figure against Codex); the measurements of
// docs/decisions/0325-start-up-steps.md.
//
//   node scripts/build.ts && node bench/startup/first-request.ts
//   BENCH_VARIANTS=warm,off,before=apps/tack/bin/tack-before.js:off node bench/startup/first-request.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { measureRun, median } from '../lib/measure-run.ts'
import { TACK_BIN } from '../lib/tack-run.ts'

const runs = Number(process.env.BENCH_RUNS ?? 15)

type Cache = 'cold' | 'warm' | 'off'
interface Variant {
  readonly name: string
  readonly bin: string
  readonly cache: Cache
}

/** `BENCH_VARIANTS`: comma-separated `cache` (this checkout) or `name=path/to/bin/tack.js:cache`. */
function variants(spec: string): Variant[] {
  return spec.split(',').map((item) => {
    const at = item.lastIndexOf(':')
    const [who, cache] = at < 0 ? ['this', item] : [item.slice(0, at), item.slice(at + 1)]
    if (cache !== 'cold' && cache !== 'warm' && cache !== 'off')
      throw new Error(`BENCH_VARIANTS: bad cache in ${item}`)
    const [name, path] = who.includes('=') ? who.split('=') : [who, undefined]
    return { name: `${name} ${cache}`, bin: path ? resolve(path) : TACK_BIN, cache }
  })
}

const chosen = variants(process.env.BENCH_VARIANTS ?? 'cold,warm,off')
/** One TACK_HOME per launcher for the warm variant, kept across its runs. */
const warmHomes = new Map(chosen.map((v) => [v.bin, mkdtempSync(join(tmpdir(), 'tack-warm-'))]))

async function once(bin: string, cache: Cache, warmHome: string) {
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
  // one untimed run per launcher warms its cache and the file system's
  for (const [bin, home] of warmHomes) await once(bin, 'warm', home)
  for (let i = 0; i < runs; i++) {
    for (const v of chosen) {
      const r = await once(v.bin, v.cache, warmHomes.get(v.bin) ?? '')
      if (r.exitCode !== 0) throw new Error(`${v.name}: tack run exited ${r.exitCode}`)
      push(first, v.name, (r.firstRequestS ?? Number.NaN) * 1000)
      push(cpu, v.name, (r.cpuS ?? Number.NaN) * 1000)
    }
  }
} finally {
  for (const home of warmHomes.values()) rmSync(home, { recursive: true, force: true })
}
console.log(`tack run to its first model request, medians of ${runs} alternated runs`)
for (const key of first.keys()) {
  const f = median(first.get(key) ?? []).toFixed(0)
  const c = median(cpu.get(key) ?? []).toFixed(0)
  console.log(
    `  ${key.padEnd(20)} first request after ${f.padStart(4)} ms   CPU (whole run) ${c.padStart(4)} ms`,
  )
}
