// P2 harness overhead (and P8 headless memory): a scripted 20-read session (21 model requests) through
// the real `tack run` binary and the pi coding agent (a dev dependency), against a loopback model server
// that answers instantly, alternated in one run. Prints both agents' CPU, wall, max RSS, time to first
// request and request bytes, and the ratios against the budgets of 90-quality.md P2 (CPU ≤ 0.25× pi's,
// first request ≤ 0.5×, peak RSS ≤ 0.6×, request bytes ≤ pi's; P8 headless peak ≤ 150 MB). P1's
// first-request figure: tack's time to first request beside the Codex CLI's (installed by
// bench/lib/codex-run.ts when missing), in the same rotation, judged against the `codex` command as npm
// installs it (its Node launcher starting the native binary, as tack's goes through its sh launcher), the
// native binary alone printed beside it; budget ratio ≤ 1.0.
//
//   node bench/overhead/run.ts          (BENCH_RUNS=n rounds, default 5)
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LoopbackEntry } from '@tack/llm/testing'
import { codexBinary, measureCodexRun } from '../lib/codex-run.ts'
import { median, type RunMeasure } from '../lib/measure-run.ts'
import { measurePiRun } from '../lib/pi-run.ts'
import { measureTackRun } from '../lib/tack-run.ts'

export const READS = 20

/** The 20 reads, then a closing answer; `pathKey` is the agent's read-argument name (pi's is `path`). */
export function twentyReads(pathKey = 'file_path'): LoopbackEntry[] {
  const script: LoopbackEntry[] = []
  for (let i = 1; i <= READS; i++) {
    script.push({
      kind: 'tool-calls',
      calls: [{ name: 'read', args: { [pathKey]: `src/module-${i}.ts` } }],
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

const BUDGET = { cpu: 0.25, first: 0.5, rss: 0.6, bytes: 1, codexFirst: 1 }

interface Figures {
  cpuS?: number
  rssMb?: number
  wallS: number
  firstS: number
  bytes: number
}

function figures(results: readonly RunMeasure[]): Figures {
  const all = <K extends 'cpuS' | 'maxRssMb'>(k: K) =>
    results.every((r) => r[k] !== undefined) ? median(results.map((r) => r[k] as number)) : undefined
  return {
    cpuS: all('cpuS'),
    rssMb: all('maxRssMb'),
    wallS: median(results.map((r) => r.wallS)),
    firstS: median(results.map((r) => r.firstRequestS ?? Number.NaN)),
    bytes: median(results.map((r) => r.requestBytes)),
  }
}

const verdict = (ratio: number | undefined, budget: number) =>
  ratio === undefined
    ? 'n/a'
    : `${ratio.toFixed(2)}×  (budget ≤ ${budget.toFixed(2)}×) ${ratio <= budget ? 'ok' : 'OVER'}`

if (import.meta.main) {
  const runs = Number(process.env.BENCH_RUNS ?? 5)
  // Homes kept across the runs, as a person's are (each agent's first run in them is untimed):
  // what a warm start costs is what people wait for.
  const homes = await mkdtemp(join(tmpdir(), 'tack-bench-homes-'))
  const tackHome = join(homes, 'tack-home')
  const codexHome = join(homes, 'codex-home')
  const codex = codexBinary()
  const agents: Array<[string, () => Promise<RunMeasure>]> = [
    ['tack', () => measureTackRun({ script: twentyReads(), task: TASK, prepare: prepareModules, tackHome })],
    ['pi', () => measurePiRun({ script: twentyReads('path'), task: TASK, prepare: prepareModules })],
  ]
  // Codex answers the same task with the script's last answer: only its time to first request is
  // compared (its tools are not tack's, so the 20 reads are the other two's alone).
  const codexRun = (program: string) => () =>
    measureCodexRun({
      codex: program,
      script: twentyReads().slice(-1),
      task: TASK,
      prepare: prepareModules,
      codexHome,
    })
  if ('command' in codex) {
    agents.push(['codex', codexRun(codex.command)])
    if (codex.native) agents.push(['codex-native', codexRun(codex.native)])
  }
  for (const [, run] of agents) await run()
  const results = new Map<string, RunMeasure[]>(agents.map(([name]) => [name, []]))
  for (let i = 0; i < runs; i++) {
    // rotated, so none always runs after the same one
    for (let k = 0; k < agents.length; k++) {
      const [name, run] = agents[(i + k) % agents.length]
      results.get(name)!.push(await run())
    }
  }
  await rm(homes, { recursive: true, force: true })
  const tackRuns = results.get('tack')!
  const piRuns = results.get('pi')!
  const codexRuns = results.get('codex') ?? []
  const nativeRuns = results.get('codex-native') ?? []
  const ok =
    tackRuns.every((r) => r.exitCode === 0 && r.requests.length === READS + 1) &&
    piRuns.every((r) => r.exitCode === 0 && r.requests.length === READS + 1) &&
    [...codexRuns, ...nativeRuns].every((r) => r.exitCode === 0 && r.firstRequestS !== undefined)
  const t = figures(tackRuns)
  const p = figures(piRuns)
  const c = codexRuns.length ? figures(codexRuns) : undefined
  const n = nativeRuns.length ? figures(nativeRuns) : undefined
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? undefined : a / b
  const row = (label: string, tv: string, pv: string, r: string) =>
    console.log(`  ${label.padEnd(22)}${tv.padStart(10)}${pv.padStart(10)}   ${r}`)
  console.log(
    `P2 harness overhead: scripted ${READS}-read session, ${READS + 1} model requests, tack and pi alternated, medians of ${runs}${ok ? '' : ' (A RUN FAILED)'}`,
  )
  row('', 'tack', 'pi', 'tack / pi')
  row(
    'CPU (user+sys)',
    `${t.cpuS?.toFixed(2) ?? 'n/a'} s`,
    `${p.cpuS?.toFixed(2) ?? 'n/a'} s`,
    verdict(ratio(t.cpuS, p.cpuS), BUDGET.cpu),
  )
  row('wall', `${t.wallS.toFixed(2)} s`, `${p.wallS.toFixed(2)} s`, `${(t.wallS / p.wallS).toFixed(2)}×`)
  row(
    'max RSS',
    `${t.rssMb?.toFixed(0) ?? 'n/a'} MB`,
    `${p.rssMb?.toFixed(0) ?? 'n/a'} MB`,
    verdict(ratio(t.rssMb, p.rssMb), BUDGET.rss),
  )
  row(
    'time to first request',
    `${t.firstS.toFixed(3)} s`,
    `${p.firstS.toFixed(3)} s`,
    verdict(t.firstS / p.firstS, BUDGET.first),
  )
  row(
    'request bytes, total',
    `${(t.bytes / 1024).toFixed(0)} KB`,
    `${(p.bytes / 1024).toFixed(0)} KB`,
    verdict(t.bytes / p.bytes, BUDGET.bytes),
  )
  console.log(
    `  P8 headless peak RSS  ${t.rssMb === undefined ? 'n/a' : `${t.rssMb.toFixed(0)} MB   (budget ≤ 150 MB) ${t.rssMb <= 150 ? 'ok' : 'OVER'}`}`,
  )
  const codexRatio = c ? t.firstS / c.firstS : undefined
  const nativeRatio = n ? t.firstS / n.firstS : undefined
  console.log(
    `P1 time to first request beside the Codex CLI, same rotation, warm homes, medians of ${runs}:\n` +
      `  tack                  ${t.firstS.toFixed(3)} s   (its sh launcher, then Node)\n` +
      (c && 'command' in codex
        ? `  codex                 ${c.firstS.toFixed(3)} s   (the command as installed: ${codex.source})\n` +
          (n
            ? `  codex, native alone   ${n.firstS.toFixed(3)} s   (its binary without the npm package's Node launcher)\n`
            : '') +
          `  tack / codex          ${verdict(codexRatio, BUDGET.codexFirst)}` +
          (nativeRatio === undefined
            ? ''
            : `\n  tack / native alone   ${nativeRatio.toFixed(2)}×  (shown, not judged)`)
        : `  Codex                 not measured: ${'missing' in codex ? codex.missing : 'no run'}`),
  )
  console.log(
    JSON.stringify({
      id: 'P2',
      tack: t,
      pi: p,
      codexFirstRequestS: c?.firstS,
      codexNativeFirstRequestS: n?.firstS,
      ratios: {
        cpuToPi: ratio(t.cpuS, p.cpuS),
        rssToPi: ratio(t.rssMb, p.rssMb),
        firstRequestToPi: t.firstS / p.firstS,
        requestBytesToPi: t.bytes / p.bytes,
        firstRequestToCodex: codexRatio,
        firstRequestToCodexNative: nativeRatio,
      },
      ok,
    }),
  )
  if (!ok) process.exitCode = 1
}
