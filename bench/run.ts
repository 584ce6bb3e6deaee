// `npm run bench`: runs every benchmark as its own process, one after another, and prints their figures.
// Speed and memory are proven here (ratios against baselines measured in the same run), never by timed
// assertions in the test suite. `npm run bench -- p1 p4` runs a subset.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const BENCHES: Array<{ id: string; file: string; what: string }> = [
  { id: 'p1', file: 'startup/run.ts', what: 'start-up' },
  { id: 'p2', file: 'overhead/run.ts', what: 'harness overhead per step, headless memory (P8)' },
  { id: 'p3', file: 'log/run.ts', what: 'session log' },
  { id: 'p4', file: 'prefix/run.ts', what: 'prompt-cache stability' },
  { id: 'p5', file: 'hooks/run.ts', what: 'hook overhead' },
  { id: 'p6', file: 'dice/run.ts', what: 'agent-dice Stop hook' },
  { id: 'p7', file: 'code-mode/run.ts', what: 'Code Mode: requests and tokens vs native, sandbox start' },
  {
    id: 'p8',
    file: 'tui/run.ts',
    what: 'interactive: idle RSS and keystroke latency while streaming, against pi',
  },
  { id: 'p9', file: 'search/run.ts', what: 'grep and glob against ripgrep' },
  {
    id: 'p10',
    file: 'many/run.ts',
    what: 'many sessions in one `tack acp` process: 1, 10, 50 at once against 50 one after another',
  },
  {
    id: 'p12',
    file: 'fleet/run.ts',
    what: 'fleet: jobs per minute for 1, 2, 4 workers, queue overhead vs bare pg-boss, events/s Postgres vs SQLite',
  },
  { id: 'long', file: 'long/run.ts', what: 'long sessions: flat memory, cheap steps, against pi' },
  { id: 'state', file: 'state/run.ts', what: 'agent-state tmux over 200 snapshots (budget 150 ms)' },
  {
    id: 'mcp',
    file: 'mcp/run.ts',
    what: 'first request with 5 stdio MCP servers vs none, per-call overhead vs a raw SDK call',
  },
  {
    id: 'checkpoints',
    file: 'checkpoints/run.ts',
    what: "a turn's checkpoint on a 10,000-file repository (goal 50 ms), against git status",
  },
]

const wanted = process.argv.slice(2).map((a) => a.toLowerCase())
let failed = 0
for (const bench of BENCHES) {
  if (wanted.length && !wanted.includes(bench.id)) continue
  const file = fileURLToPath(new URL(bench.file, import.meta.url))
  process.stdout.write(`\n── ${bench.id.toUpperCase()} ${bench.what} (bench/${bench.file})\n`)
  if (!existsSync(file)) {
    process.stdout.write('   not available in this build\n')
    continue
  }
  const r = spawnSync(process.execPath, [file], { stdio: 'inherit' })
  if (r.status !== 0) {
    failed++
    process.stdout.write(`   exited ${r.status ?? r.signal}\n`)
  }
}
if (failed) process.exitCode = 1
