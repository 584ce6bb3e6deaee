// Runs the real `tack run` binary against an in-process loopback model server, measuring the child
// with GNU time (wall, user+sys CPU, max RSS) and the server's request log (time to first request,
// request bytes).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type LoggedRequest, type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'

export const TACK_BIN = fileURLToPath(new URL('../../apps/tack/bin/tack.js', import.meta.url))
const GNU_TIME = '/usr/bin/time'

export interface RunMeasure {
  readonly exitCode: number | null
  readonly wallS: number
  readonly cpuS?: number
  readonly maxRssMb?: number
  readonly firstRequestS?: number
  readonly requests: readonly LoggedRequest[]
  readonly requestBytes: number
  readonly stdout: string
}

export async function measureTackRun(opts: {
  script: LoopbackEntry[]
  task: string
  prepare?: (workspace: string) => Promise<void>
  extraArgs?: string[]
  /** More YAML for the run's config file (e.g. `  dice: false` lines under `plugins:`). */
  pluginsYaml?: string
}): Promise<RunMeasure> {
  const arrivals: number[] = []
  const server = await startLoopbackServer({
    script: opts.script,
    onRequest: () => arrivals.push(Date.now()),
  })
  const root = await mkdtemp(join(tmpdir(), 'tack-bench-'))
  const workspace = join(root, 'ws')
  await mkdir(workspace, { recursive: true })
  await mkdir(join(root, 'home'), { recursive: true })
  await opts.prepare?.(workspace)
  const config = join(root, 'bench.yml')
  await writeFile(
    config,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n${opts.pluginsYaml ?? ''}`,
  )
  const timeFile = join(root, 'time.txt')
  const tackArgs = [
    TACK_BIN,
    'run',
    '--config',
    config,
    '--model',
    'loop/bench',
    ...(opts.extraArgs ?? []),
    opts.task,
  ]
  const useTime = existsSync(GNU_TIME)
  const [cmd, args] = useTime
    ? [GNU_TIME, ['-f', '%e %U %S %M', '-o', timeFile, process.execPath, ...tackArgs]]
    : [process.execPath, tackArgs]
  const env = { PATH: process.env.PATH, HOME: join(root, 'home'), TACK_HOME: join(root, 'tack-home') }
  const started = Date.now()
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    // stderr is collected (tack run prints a line per tool call there) and shown only when the run fails
    const child = spawn(cmd, args as string[], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    child.on('error', reject)
    child.on('close', (c) => {
      if (c !== 0) process.stderr.write(err)
      resolve({ code: c, stdout: out })
    })
  })
  const wallS = (Date.now() - started) / 1000
  const requests = [...server.requests]
  await server.close()
  let cpuS: number | undefined
  let maxRssMb: number | undefined
  if (useTime) {
    const [, user, sys, rssKb] = (await readFile(timeFile, 'utf8'))
      .trim()
      .split('\n')
      .at(-1)!
      .split(' ')
      .map(Number)
    cpuS = user + sys
    maxRssMb = rssKb / 1024
  }
  const first = arrivals[0]
  return {
    exitCode: code,
    wallS,
    ...(cpuS !== undefined ? { cpuS } : {}),
    ...(maxRssMb !== undefined ? { maxRssMb } : {}),
    ...(first !== undefined ? { firstRequestS: (first - started) / 1000 } : {}),
    requests,
    requestBytes: requests.reduce((n, r) => n + r.bytes, 0),
    stdout,
  }
}
