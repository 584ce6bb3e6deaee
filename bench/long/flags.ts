// A/B trials for the long-session bench (docs/decisions/0067-long-session-cost.md): tack's 20- and
// 200-read sessions under each variant, alternated run by run so load on the machine falls on every
// variant alike, medians of BENCH_RUNS (default 3). A variant is Node flags (`node <flags> bin/tack.js`,
// bypassing the launcher's own flags; `--` alone: plain `node bin/tack.js`) or nothing (the binary run
// as a program, as users run it), optionally after `@<path to another checkout's bin/tack.js>` (a
// baseline build). Prints CPU, peak RSS, RSS growth and CPU per extra request per variant. Not part of
// `npm run bench`; run it when revisiting a change.
//
//   node bench/long/flags.ts '' '--' '--max-semi-space-size=16' '@/tmp/base/apps/tack/bin/tack.js'
import { median, type RunMeasure } from '../lib/measure-run.ts'
import { measureTackRun } from '../lib/tack-run.ts'
import { LONG, prepareSmallModules, readSession, SHORT } from './run.ts'

const variants = process.argv.slice(2)
const variant = (spec: string) => {
  const words = spec.split(' ').filter(Boolean)
  const bin = words[0]?.startsWith('@') ? words.shift()?.slice(1) : undefined
  const flags = words.filter((w) => w !== '--')
  return { ...(words.length > 0 ? { nodeFlags: flags } : {}), ...(bin ? { bin } : {}) }
}
if (variants.length === 0) variants.push('')
const runs = Number(process.env.BENCH_RUNS ?? 3)
const samples = new Map<string, RunMeasure[]>()
for (let i = 0; i < runs; i++) {
  for (const reads of [SHORT, LONG]) {
    for (const flags of variants) {
      const r = await measureTackRun({
        script: readSession(reads, 'file_path'),
        task: 'read every module under src',
        prepare: prepareSmallModules,
        pluginsYaml: '  agent:\n    maxStepsPerTurn: 1000\n',
        ...variant(flags),
      })
      if (r.exitCode !== 0) throw new Error(`tack ${flags} ${reads} reads exited ${r.exitCode}`)
      const key = `${flags}/${reads}`
      samples.set(key, [...(samples.get(key) ?? []), r])
    }
  }
}
console.log(`tack under Node flags, medians of ${runs} alternated runs`)
console.log(
  '                                   CPU@20   CPU@200   RSS@20   RSS@200   growth   ms/extra request',
)
for (const flags of variants) {
  const at = (reads: number, pick: (r: RunMeasure) => number | undefined) =>
    median((samples.get(`${flags}/${reads}`) ?? []).map((r) => pick(r) ?? Number.NaN))
  const cpu20 = at(SHORT, (r) => r.cpuS)
  const cpu200 = at(LONG, (r) => r.cpuS)
  const rss20 = at(SHORT, (r) => r.maxRssMb)
  const rss200 = at(LONG, (r) => r.maxRssMb)
  const perRequest = ((cpu200 - cpu20) / (LONG - SHORT)) * 1000
  console.log(
    `  ${(flags || '(this checkout)').padEnd(32)} ${cpu20.toFixed(2).padStart(6)} s ${cpu200.toFixed(2).padStart(6)} s ${rss20.toFixed(0).padStart(6)} MB ${rss200.toFixed(0).padStart(6)} MB ${(rss200 / rss20).toFixed(2).padStart(6)}×  ${perRequest.toFixed(1).padStart(8)} ms`,
  )
}
