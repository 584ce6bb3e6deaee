// P7 Code Mode: the same 20-tool-call task through the real `tack run` against the loopback model,
// once in `native` mode (one read per model step: 21 requests) and once in `code` mode (one run_code
// program reading the 20 files: 2 requests), comparing model requests and request tokens (estimated
// as request body bytes / 4, the same estimate for both); then the sandbox start time per run,
// measured in process on @tack/code-runtime's worker thread (the path `ctx.codeRuntime` takes). Budgets: 2 requests vs 21, tokens ≤ 0.3× native,
// start ≤ 20 ms per run.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runInWorker, warmWorker } from '@tack/code-runtime/runner'
import type { LoopbackEntry } from '@tack/llm/testing'
import { measureTackRun } from '../lib/tack-run.ts'

const FILES = 20
const BYTES_PER_TOKEN = 4
const STARTS = 40

const names = Array.from({ length: FILES }, (_, i) => `src/mod${String(i + 1).padStart(2, '0')}.ts`)

async function prepare(workspace: string): Promise<void> {
  const { mkdir } = await import('node:fs/promises')
  await mkdir(join(workspace, 'src'))
  for (const [i, name] of names.entries()) {
    const lines = Array.from(
      { length: 40 },
      (_, n) => `export const value${n} = ${i * 100 + n} // module ${i + 1}`,
    )
    if (i === 12) lines.push('// FIXME: the only marker')
    await writeFile(join(workspace, name), `${lines.join('\n')}\n`)
  }
}

function nativeScript(): LoopbackEntry[] {
  return [
    ...names.map(
      (file_path): LoopbackEntry => ({ kind: 'tool-calls', calls: [{ name: 'read', args: { file_path } }] }),
    ),
    { kind: 'text', text: 'src/mod13.ts has the marker.' },
  ]
}

function codeScript(): LoopbackEntry[] {
  const program = [
    `const names = ${JSON.stringify(names)}`,
    'const hits: string[] = []',
    'for (const file_path of names) {',
    '  const text = await tools.read({ file_path })',
    "  if (text.includes('FIXME')) hits.push(file_path)",
    '}',
    'return hits',
  ].join('\n')
  return [
    { kind: 'tool-calls', calls: [{ name: 'run_code', args: { code: program } }] },
    { kind: 'text', text: 'src/mod13.ts has the marker.' },
  ]
}

async function sandboxStarts(): Promise<{ idle: number[]; backToBack: number[] }> {
  const budgets = { computeMs: 1_000, maxWallMs: 5_000, memoryBytes: 268_435_456, maxLogBytes: 64_000 }
  const once = async () => {
    const started = performance.now()
    const outcome = await runInWorker(
      { code: 'return 1', bindings: {}, signal: new AbortController().signal },
      budgets,
      { stopGraceMs: 1_000 },
    )
    if (!outcome.ok) throw new Error(`the trivial program failed: ${outcome.message}`)
    return performance.now() - started
  }
  warmWorker(budgets.memoryBytes)
  await once() // compiles the module and loads the stripper
  const idle: number[] = []
  const backToBack: number[] = []
  for (let i = 0; i < STARTS; i++) {
    // Between two run_code calls there is at least one model request: the spare isolate is ready.
    await new Promise((r) => setTimeout(r, 100))
    idle.push(await once())
  }
  for (let i = 0; i < STARTS; i++) backToBack.push(await once())
  return { idle, backToBack }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}

if (import.meta.main) {
  const native = await measureTackRun({
    script: nativeScript(),
    task: 'which module has the FIXME?',
    prepare,
  })
  const code = await measureTackRun({
    script: codeScript(),
    task: 'which module has the FIXME?',
    prepare,
    extraArgs: ['--tools-mode', 'code'],
  })
  const tokens = (bytes: number) => Math.round(bytes / BYTES_PER_TOKEN)
  const ratio = code.requestBytes / native.requestBytes
  console.log(`P7 Code Mode: a ${FILES}-call task (read ${FILES} files, find the marker)`)
  console.log(
    `  native: ${native.requests.length} requests, ~${tokens(native.requestBytes)} request tokens (exit ${native.exitCode})`,
  )
  console.log(
    `  code:   ${code.requests.length} requests, ~${tokens(code.requestBytes)} request tokens (exit ${code.exitCode})`,
  )
  console.log(
    `  requests ${code.requests.length} vs ${native.requests.length}   budget 2 vs 21 ${code.requests.length === 2 && native.requests.length === FILES + 1 ? 'ok' : 'OVER'}`,
  )
  console.log(`  tokens ratio ${ratio.toFixed(3)}×   budget ≤ 0.3× ${ratio <= 0.3 ? 'ok' : 'OVER'}`)
  const starts = await sandboxStarts()
  const p50 = quantile(starts.idle, 0.5)
  const p95 = quantile(starts.idle, 0.95)
  console.log(
    `  sandbox start + a trivial run, fresh isolate each: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms   budget ≤ 20 ms ${p50 <= 20 ? 'ok' : 'OVER'}`,
  )
  console.log(
    `  back to back (no time to prepare the spare isolate): p50 ${quantile(starts.backToBack, 0.5).toFixed(1)} ms, p95 ${quantile(starts.backToBack, 0.95).toFixed(1)} ms`,
  )
  console.log(
    JSON.stringify({
      id: 'P7',
      nativeRequests: native.requests.length,
      codeRequests: code.requests.length,
      nativeTokens: tokens(native.requestBytes),
      codeTokens: tokens(code.requestBytes),
      ratio,
      startP50Ms: p50,
      startP95Ms: p95,
    }),
  )
  if (native.exitCode !== 0 || code.exitCode !== 0 || code.requests.length !== 2 || ratio > 0.3 || p50 > 20)
    process.exitCode = 1
}
