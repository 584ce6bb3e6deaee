// P2 harness overhead (and P8 headless memory): a scripted 20-read session (21 model requests) through
// the real `tack run` binary against a loopback model server that answers instantly. Prints CPU, wall,
// max RSS, time to first request and request bytes, next to the budget derived from the reference peer
// figures in 90-quality.md (best peer 1.28 CPU s → budget 0.64 s; P8 headless peak ≤ 150 MB). P1's
// first-request figure: tack's time to first request beside the Codex CLI's (a native binary, installed
// by bench/lib/codex-run.ts when missing), alternated in this run; budget ratio ≤ 1.0.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LoopbackEntry } from '@tack/llm/testing'
import { codexBinary, measureCodexRun } from '../lib/codex-run.ts'
import { median } from '../lib/measure-run.ts'
import { measureTackRun } from '../lib/tack-run.ts'

export const READS = 20
const PEER_CPU_S = 1.28

export function twentyReads(): LoopbackEntry[] {
  const script: LoopbackEntry[] = []
  for (let i = 1; i <= READS; i++) {
    script.push({
      kind: 'tool-calls',
      calls: [{ name: 'read', args: { file_path: `src/module-${i}.ts` } }],
      usage: { inputTokens: 1000 + i * 200, outputTokens: 20 },
    })
  }
  script.push({
    kind: 'text',
    text: 'I read all twenty modules.',
    usage: { inputTokens: 6000, outputTokens: 30 },
  })
  return script
}

export async function prepareModules(workspace: string): Promise<void> {
  const { mkdir } = await import('node:fs/promises')
  await mkdir(join(workspace, 'src'), { recursive: true })
  for (let i = 1; i <= READS; i++) {
    const body = Array.from(
      { length: 60 },
      (_, l) => `export const value${l} = ${i * 1000 + l} // line ${l} of module ${i}`,
    ).join('\n')
    await writeFile(join(workspace, 'src', `module-${i}.ts`), `${body}\n`)
  }
}

const TASK = 'read every module under src'

if (import.meta.main) {
  const runs = Number(process.env.BENCH_RUNS ?? 5)
  // Homes kept across the runs, as a person's are (each agent's first run in them is untimed):
  // what a warm start costs is what people wait for.
  const homes = await mkdtemp(join(tmpdir(), 'tack-bench-homes-'))
  const tackHome = join(homes, 'tack-home')
  const codexHome = join(homes, 'codex-home')
  const codex = codexBinary()
  const tackRun = () =>
    measureTackRun({ script: twentyReads(), task: TASK, prepare: prepareModules, tackHome })
  // Codex answers the same task with the script's last answer: only its time to first request is
  // compared (its tools are not tack's, so the 20 reads are tack's alone).
  const codexRun = (path: string) =>
    measureCodexRun({
      codex: path,
      script: twentyReads().slice(-1),
      task: TASK,
      prepare: prepareModules,
      codexHome,
    })
  await tackRun()
  if ('path' in codex) await codexRun(codex.path)
  const results = []
  const codexResults = []
  for (let i = 0; i < runs; i++) {
    // alternated, so neither always runs after the other
    if ('path' in codex && i % 2 === 1) codexResults.push(await codexRun(codex.path))
    results.push(await tackRun())
    if ('path' in codex && i % 2 === 0) codexResults.push(await codexRun(codex.path))
  }
  await rm(homes, { recursive: true, force: true })
  const ok =
    results.every((r) => r.exitCode === 0 && r.requests.length === READS + 1) &&
    codexResults.every((r) => r.exitCode === 0 && r.firstRequestS !== undefined)
  const cpu = results.every((r) => r.cpuS !== undefined) ? median(results.map((r) => r.cpuS!)) : undefined
  const rss = results.every((r) => r.maxRssMb !== undefined)
    ? median(results.map((r) => r.maxRssMb!))
    : undefined
  const wall = median(results.map((r) => r.wallS))
  const first = median(results.map((r) => r.firstRequestS ?? Number.NaN))
  const codexFirst = codexResults.length
    ? median(codexResults.map((r) => r.firstRequestS ?? Number.NaN))
    : undefined
  const bytes = results[0].requestBytes
  console.log(
    `P2 harness overhead: scripted ${READS}-read session, ${READS + 1} model requests, medians of ${runs} runs${ok ? '' : ' (A RUN FAILED)'}`,
  )
  console.log(
    `  CPU (user+sys)          ${cpu === undefined ? 'n/a (GNU time not found)' : `${cpu.toFixed(2)} s   budget ≤ ${(PEER_CPU_S * 0.5).toFixed(2)} s (0.5× best peer ${PEER_CPU_S} s) ${cpu <= PEER_CPU_S * 0.5 ? 'ok' : 'OVER'}`}`,
  )
  console.log(`  wall                    ${wall.toFixed(2)} s`)
  console.log(
    `  max RSS (P8 headless)   ${rss === undefined ? 'n/a' : `${rss.toFixed(0)} MB   budget ≤ 150 MB ${rss <= 150 ? 'ok' : 'OVER'}`}`,
  )
  console.log(`  request bytes, total    ${(bytes / 1024).toFixed(0)} KB   (pi: 175 KB)`)
  const ratio = codexFirst === undefined ? undefined : first / codexFirst
  console.log(
    `P1 time to first request, alternated in this run, warm homes, medians of ${runs}:\n` +
      `  tack                    ${first.toFixed(3)} s\n` +
      ('path' in codex && codexFirst !== undefined && ratio !== undefined
        ? `  Codex (native binary)   ${codexFirst.toFixed(3)} s   ${codex.source}\n` +
          `  ratio tack / Codex      ${ratio.toFixed(2)}×   (budget ≤ 1.00×) ${ratio <= 1 ? 'ok' : 'OVER'}`
        : `  Codex                   not measured: ${'missing' in codex ? codex.missing : 'no run'}`),
  )
  console.log(
    JSON.stringify({
      id: 'P2',
      cpuS: cpu,
      wallS: wall,
      maxRssMb: rss,
      firstRequestS: first,
      codexFirstRequestS: codexFirst,
      firstRequestRatioToCodex: ratio,
      requestBytes: bytes,
      ok,
    }),
  )
  if (!ok) process.exitCode = 1
}
