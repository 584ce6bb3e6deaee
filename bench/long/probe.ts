// Probe for one tack run of the long-session bench with extra Node flags (e.g. --cpu-prof), so where
// the time of a step goes can be read off a profile of the real binary. Not part of `npm run bench`.
//
//   node bench/long/probe.ts READS [node flags…]
import { measureTackRun } from '../lib/tack-run.ts'
import { prepareSmallModules, readSession } from './run.ts'

const reads = Number(process.argv[2] ?? 200)
const flags = process.argv.slice(3)
const r = await measureTackRun({
  script: readSession(reads, 'file_path'),
  task: 'read every module under src',
  prepare: prepareSmallModules,
  pluginsYaml: '  agent:\n    maxStepsPerTurn: 1000\n',
  nodeFlags: flags,
})
console.log(
  JSON.stringify({ reads, exit: r.exitCode, cpuS: r.cpuS, rssMb: r.maxRssMb, requests: r.requests.length }),
)
if (process.env.PROBE_BODY) {
  const { writeFileSync } = await import('node:fs')
  writeFileSync(process.env.PROBE_BODY, r.requests.at(-1)?.rawBody ?? '')
  console.log('request bytes total', r.requestBytes, 'last', r.requests.at(-1)?.bytes)
}
