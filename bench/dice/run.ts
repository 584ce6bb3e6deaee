// P6 (90-quality.md): wall time of one agent-dice Stop hook invocation on Node, process start
// included, against a baseline `node -e 0` measured in the same run. Standalone:
//
//   npx node bench/dice/run.ts [--runs N]
//
// The hook runs as Claude Code runs it: a fresh `node <hook file>` per invocation with a
// Claude-shaped JSON payload on stdin, a realistic registry (cc-reflection's accumulator, a single
// and a fixed slot) and a 300-prompt transcript, so the accumulator reads the transcript each time.
// Each invocation uses a new session id, so cooldowns never short-cut the work.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BUDGET_MS = 60
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'products', 'agent-dice')
const runsFlag = process.argv.indexOf('--runs')
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 30
if (!Number.isInteger(runs) || runs < 3 || runs > 10_000) {
  process.stderr.write('--runs must be an integer from 3 to 10000\n')
  process.exit(1)
}

// The hook files prefer the built JavaScript, as in a published tarball.
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.js')], { encoding: 'utf8' })
if (build.status !== 0) {
  process.stderr.write(build.stderr)
  process.exit(1)
}

const home = mkdtempSync(join(tmpdir(), 'agent-dice-bench-'))
const base = join(home, '.claude', 'dice')
mkdirSync(base, { recursive: true })
const slot = (name: string, extra: Record<string, unknown>) => ({
  targetMode: 'exact',
  type: 'accumulator',
  accumulationRate: 7,
  maxDice: 100,
  fixedCount: 1,
  cooldown: 'per-session',
  clearOnSessionStart: true,
  resetOnTrigger: true,
  flavor: true,
  name,
  die: 20,
  target: 20,
  onTrigger: { message: `Dice trigger: ${name}` },
  ...extra,
})
writeFileSync(
  join(base, 'slots.json'),
  JSON.stringify(
    {
      reflection: slot('reflection', { onTrigger: { message: 'Invoke /reflection before ending.' } }),
      coin: slot('coin', { type: 'single', die: 2, target: 2 }),
      review: slot('review', { type: 'fixed', fixedCount: 3, die: 100, target: 100 }),
    },
    null,
    2,
  ),
)
const transcript = join(home, 'transcript.jsonl')
const lines: string[] = []
for (let i = 0; i < 300; i++) {
  lines.push(
    JSON.stringify({ type: 'user', message: { role: 'user', content: `prompt ${i}` }, uuid: `u${i}` }),
  )
  lines.push(
    JSON.stringify({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'x'.repeat(400) }] },
    }),
  )
  lines.push(
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result' }] },
      toolUseResult: {},
    }),
  )
}
writeFileSync(transcript, lines.join('\n'))

const env = { PATH: process.env.PATH, HOME: home }
const hook = join(root, 'hooks', 'agent-dice-claude-stop.js')

function time(args: string[], input: string): number {
  const start = process.hrtime.bigint()
  const r = spawnSync(process.execPath, args, { env, input, encoding: 'utf8' })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.status !== 0 && r.status !== 2) throw new Error(`exit ${r.status}: ${r.stderr}`)
  return ms
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]

const payload = (i: number) =>
  JSON.stringify({
    session_id: `bench-${i}`,
    transcript_path: transcript,
    cwd: home,
    hook_event_name: 'Stop',
    stop_hook_active: false,
  })

for (let i = 0; i < 3; i++) {
  time(['-e', '0'], '')
  time([hook], payload(-1 - i))
}
const baseline: number[] = []
const stop: number[] = []
for (let i = 0; i < runs; i++) {
  baseline.push(time(['-e', '0'], ''))
  stop.push(time([hook], payload(i)))
}
rmSync(home, { recursive: true, force: true })

const f = (ms: number) => ms.toFixed(1)
const m = median(stop)
const verdict = m <= BUDGET_MS ? 'within budget' : 'OVER BUDGET'
process.stdout.write(
  [
    `P6 agent-dice Stop hook (Node ${process.version}, ${runs} runs, alternated with node -e 0)`,
    `  stop hook   median ${f(m)} ms  p90 ${f(quantile(stop, 0.9))} ms  min ${f(Math.min(...stop))} ms`,
    `  node -e 0   median ${f(median(baseline))} ms`,
    `  hook work   median ${f(m - median(baseline))} ms over a bare Node start`,
    `  budget      median ≤ ${BUDGET_MS} ms including process start: ${verdict}`,
    JSON.stringify({
      id: 'P6',
      metric: 'agent-dice Stop hook wall time per invocation',
      medianMs: Number(f(m)),
      p90Ms: Number(f(quantile(stop, 0.9))),
      baselineMedianMs: Number(f(median(baseline))),
      budgetMs: BUDGET_MS,
      ok: m <= BUDGET_MS,
    }),
    '',
  ].join('\n'),
)
