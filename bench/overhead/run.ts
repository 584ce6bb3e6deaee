// P2 harness overhead (and P8 headless memory): a scripted 20-read session (21 model requests) through
// the real `tack run` binary against a loopback model server that answers instantly. Prints CPU, wall,
// max RSS, time to first request and request bytes, next to the budget derived from the reference peer
// figures in 90-quality.md (best peer 1.28 CPU s → budget 0.64 s; P8 headless peak ≤ 150 MB).
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoopbackEntry } from '@tack/llm/testing'
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

if (import.meta.main) {
  const runs = Number(process.env.BENCH_RUNS ?? 3)
  const results = []
  for (let i = 0; i < runs; i++) {
    results.push(
      await measureTackRun({
        script: twentyReads(),
        task: 'read every module under src',
        prepare: prepareModules,
      }),
    )
  }
  const ok = results.every((r) => r.exitCode === 0 && r.requests.length === READS + 1)
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
  const cpu = results.every((r) => r.cpuS !== undefined) ? med(results.map((r) => r.cpuS!)) : undefined
  const rss = results.every((r) => r.maxRssMb !== undefined)
    ? med(results.map((r) => r.maxRssMb!))
    : undefined
  const wall = med(results.map((r) => r.wallS))
  const first = med(results.map((r) => r.firstRequestS ?? Number.NaN))
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
  console.log(`  time to first request   ${first.toFixed(2)} s   (fastest peer 0.18 s)`)
  console.log(`  request bytes, total    ${(bytes / 1024).toFixed(0)} KB   (pi: 175 KB)`)
  console.log(
    JSON.stringify({
      id: 'P2',
      cpuS: cpu,
      wallS: wall,
      maxRssMb: rss,
      firstRequestS: first,
      requestBytes: bytes,
      ok,
    }),
  )
  if (!ok) process.exitCode = 1
}
