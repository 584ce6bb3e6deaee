// P5 (90-quality.md): the median extra time per hook invocation over a raw spawn of the same command.
//
//   npx node bench/hooks/run.ts [--runs N] [--command 'cat >/dev/null; echo ok']
//
// Each round runs the command once through `runHook` (the trusted process runner: process group, timeout
// timer, bounded capture, group reaping, output decoding) and once as a raw `spawn('bash', ['-c', …])`
// that writes the same payload to stdin and waits for the process to close, alternating which goes
// first. The figure is the median of the per-round differences; both medians are printed too.
import { spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultHookBackend, runHook } from '@tack/hook-protocol'
import { pairedTimes } from '../lib/paired.ts'

const BUDGET_MS = 5

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    warmup: { type: 'string', default: '5' },
    command: { type: 'string', default: 'cat > /dev/null; echo \'{"decision":"approve"}\'' },
  },
})
const runs = Math.max(20, Number(values.runs))
const warmup = Math.max(0, Number(values.warmup))
const command = values.command
const cwd = await mkdtemp(join(tmpdir(), 'tack-bench-hooks-'))
const payload = {
  session_id: 'bench',
  transcript_path: join(cwd, 'bench.jsonl'),
  cwd,
  hook_event_name: 'PreToolUse',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'ls -la' },
  tool_use_id: 'call_1',
}
const input = `${JSON.stringify(payload)}\n`

async function viaRunHook(): Promise<number> {
  const start = performance.now()
  const out = await runHook(
    defaultHookBackend,
    { command },
    { dialect: 'claude', event: 'PreToolUse', payload, cwd },
  )
  const ms = performance.now() - start
  if (out.failed) throw new Error(`the hook failed: ${out.failure}`)
  return ms
}

function raw(): Promise<number> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, stdio: ['pipe', 'pipe', 'pipe'] })
    const chunks: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => chunks.push(c))
    child.stderr.resume()
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`raw spawn exited ${code}`))
      else resolve(performance.now() - start)
    })
    child.stdin.on('error', () => {})
    child.stdin.end(input)
  })
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

const {
  measured: hookTimes,
  baseline: rawTimes,
  extra,
} = await pairedTimes(viaRunHook, raw, {
  rounds: runs,
  warmup,
})

const figure = median(extra)
const fmt = (ms: number) => `${ms.toFixed(2)} ms`
process.stdout.write(
  [
    `P5 hook overhead (${runs} invocations each, command: ${command})`,
    `  runHook median      ${fmt(median(hookTimes))}`,
    `  raw spawn median    ${fmt(median(rawTimes))}`,
    `  median extra        ${fmt(figure)} per invocation (budget ≤ ${BUDGET_MS} ms): ${figure <= BUDGET_MS ? 'within budget' : 'OVER BUDGET'}`,
    '',
  ].join('\n'),
)
