// Time from starting interactive `tack` in a pseudo-terminal to its first ready frame (the status line
// naming the model), for this checkout's launcher and others given as `name=path/to/bin/tack.js` in
// BENCH_BINS (a copy of an older launcher put next to this one runs this build its own way). Each launcher
// keeps one TACK_HOME across its runs (a warm compile cache). Variants alternate run by run; medians of
// BENCH_RUNS (default 11). Not part of `npm run bench`; docs/decisions/0325-start-up-steps.md.
//
//   node scripts/build.ts && node bench/startup/tui-first-frame.ts
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import { startPty } from '../../apps/tack/test/pty/terminal.ts'
import { median } from '../lib/measure-run.ts'
import { TACK_BIN } from '../lib/tack-run.ts'

const runs = Number(process.env.BENCH_RUNS ?? 11)
const bins: Record<string, string> = { this: TACK_BIN }
for (const item of (process.env.BENCH_BINS ?? '').split(',').filter(Boolean)) {
  const [name, path] = item.split('=')
  bins[name] = resolve(path)
}

async function firstFrame(bin: string, root: string): Promise<number> {
  const ws = join(root, 'ws')
  mkdirSync(ws, { recursive: true })
  const config = join(root, 'bench.yml')
  // never asked: the first frame needs no model request
  writeFileSync(
    config,
    'plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "http://127.0.0.1:9/v1" }\n',
  )
  const started = performance.now()
  // the launcher as a program (its sh line), with this Node first on PATH
  const term = startPty({
    file: bin,
    args: ['--config', config, '--model', 'loop/bench'],
    cwd: ws,
    env: {
      PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
      HOME: root,
      TACK_HOME: join(root, 'tack-home'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
    },
  })
  try {
    await term.waitFor(/loop\/bench/, 60_000)
    return performance.now() - started
  } finally {
    await term.close()
  }
}

const roots = Object.fromEntries(
  Object.keys(bins).map((name) => [name, mkdtempSync(join(tmpdir(), 'tack-tui-'))]),
)
const times = new Map<string, number[]>()
try {
  for (const [name, bin] of Object.entries(bins)) await firstFrame(bin, roots[name]) // warms the cache
  for (let i = 0; i < runs; i++)
    for (const [name, bin] of Object.entries(bins))
      times.set(name, [...(times.get(name) ?? []), await firstFrame(bin, roots[name])])
} finally {
  for (const root of Object.values(roots)) rmSync(root, { recursive: true, force: true })
}
console.log(`interactive tack to its first ready frame, medians of ${runs} alternated runs`)
for (const [name, ms] of times) console.log(`  ${name.padEnd(12)} ${median(ms).toFixed(0).padStart(5)} ms`)
