// Time from starting `tack acp` to its answer to the editor's `initialize` (P1 for editors), for this
// checkout's launcher and others given as `name=path/to/bin/tack.js` in BENCH_BINS (a copy of an older
// launcher put next to this one runs this build its own way). Each launcher keeps one TACK_HOME across its
// runs (a warm compile cache, as a person's editor sees it). Variants alternate run by run; medians of
// BENCH_RUNS (default 15). Not part of `npm run bench`; docs/decisions/0325-start-up-steps.md.
//
//   node scripts/build.ts && node bench/startup/acp-initialize.ts
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { median } from '../lib/measure-run.ts'
import { TACK_BIN } from '../lib/tack-run.ts'

const runs = Number(process.env.BENCH_RUNS ?? 15)
const bins: Record<string, string> = { this: TACK_BIN }
for (const item of (process.env.BENCH_BINS ?? '').split(',').filter(Boolean)) {
  const [name, path] = item.split('=')
  bins[name] = resolve(path)
}

const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`

/** Milliseconds from spawn to the line answering `initialize`. */
function initializeOnce(bin: string, root: string): Promise<number> {
  const workspace = join(root, 'ws')
  mkdirSync(workspace, { recursive: true })
  return new Promise((done, fail) => {
    const started = performance.now()
    // a model on loopback that is never asked (initialize sends no request); only so that tack has one
    const child = spawn(bin, ['acp', '--model', 'local/bench', '--base-url', 'http://127.0.0.1:9/v1'], {
      cwd: workspace,
      env: {
        PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(':'),
        HOME: root,
        TACK_HOME: join(root, 'tack-home'),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      if (!out.includes('"id":0')) return
      const ms = performance.now() - started
      child.kill()
      done(ms)
    })
    child.on('error', fail)
    child.on('exit', (code) => {
      if (!out.includes('"id":0')) fail(new Error(`tack acp exited ${code} before answering: ${out}`))
    })
    child.stdin.write(INITIALIZE)
  })
}

const roots = Object.fromEntries(
  Object.keys(bins).map((name) => [name, mkdtempSync(join(tmpdir(), 'tack-acp-'))]),
)
const times = new Map<string, number[]>()
try {
  for (const [name, bin] of Object.entries(bins)) await initializeOnce(bin, roots[name]) // warms the cache
  for (let i = 0; i < runs; i++)
    for (const [name, bin] of Object.entries(bins))
      times.set(name, [...(times.get(name) ?? []), await initializeOnce(bin, roots[name])])
} finally {
  for (const root of Object.values(roots)) rmSync(root, { recursive: true, force: true })
}
console.log(`tack acp to its initialize answer, medians of ${runs} alternated runs`)
for (const [name, ms] of times) console.log(`  ${name.padEnd(12)} ${median(ms).toFixed(0).padStart(5)} ms`)
