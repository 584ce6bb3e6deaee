// Runs one agent binary against an in-process loopback model server, measuring the child with GNU
// time (wall, user+sys CPU, max RSS) and the server's request log (time to first request, request
// bytes). `bench/lib/tack-run.ts` and `bench/lib/pi-run.ts` say how each agent is started.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { type LoggedRequest, type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'

const GNU_TIME = '/usr/bin/time'

export interface RunMeasure {
  readonly exitCode: number | null
  readonly wallS: number
  readonly cpuS?: number
  /** The kernel's share of `cpuS` (system time). */
  readonly sysS?: number
  readonly maxRssMb?: number
  readonly firstRequestS?: number
  readonly requests: readonly LoggedRequest[]
  readonly requestBytes: number
  readonly stdout: string
}

/** Where a run happens: `root` holds `ws` (the agent's cwd) and `home` (its HOME). */
export interface RunPlace {
  readonly root: string
  readonly workspace: string
  readonly home: string
  /** The loopback server's OpenAI-style base URL (`…/v1`). */
  readonly baseUrl: string
}

/** How to start one agent: its argv after `node`, and environment variables beyond PATH and HOME. */
export interface AgentCommand {
  /** An executable to run instead of this Node (`args` are then its arguments); it finds `node` on PATH. */
  readonly program?: string
  readonly args: readonly string[]
  readonly env?: Readonly<Record<string, string>>
}

export async function measureRun(opts: {
  script: LoopbackEntry[]
  prepare?: (workspace: string) => Promise<void>
  command: (place: RunPlace) => Promise<AgentCommand>
}): Promise<RunMeasure> {
  const arrivals: number[] = []
  const server = await startLoopbackServer({
    script: opts.script,
    onRequest: () => arrivals.push(Date.now()),
  })
  const root = await mkdtemp(join(tmpdir(), 'tack-bench-'))
  const place: RunPlace = {
    root,
    workspace: join(root, 'ws'),
    home: join(root, 'home'),
    baseUrl: server.baseUrl,
  }
  await mkdir(place.workspace, { recursive: true })
  await mkdir(place.home, { recursive: true })
  await opts.prepare?.(place.workspace)
  const command = await opts.command(place)
  const timeFile = join(root, 'time.txt')
  const useTime = existsSync(GNU_TIME)
  const program = command.program ?? process.execPath
  const [cmd, args] = useTime
    ? [GNU_TIME, ['-f', '%e %U %S %M', '-o', timeFile, program, ...command.args]]
    : [program, [...command.args]]
  // This Node first on PATH, so a program's `node` is the one the bench runs on.
  const env = {
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    HOME: place.home,
    ...command.env,
  }
  const started = Date.now()
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    // stderr is collected (agents print progress there) and shown only when the run fails
    const child = spawn(cmd, args, { cwd: place.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] })
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
  let sysS: number | undefined
  let maxRssMb: number | undefined
  if (useTime) {
    const [, user, sys, rssKb] = (await readFile(timeFile, 'utf8'))
      .trim()
      .split('\n')
      .at(-1)!
      .split(' ')
      .map(Number)
    cpuS = user + sys
    sysS = sys
    maxRssMb = rssKb / 1024
  }
  await rm(root, { recursive: true, force: true })
  const first = arrivals[0]
  return {
    exitCode: code,
    wallS,
    ...(cpuS !== undefined ? { cpuS } : {}),
    ...(sysS !== undefined ? { sysS } : {}),
    ...(maxRssMb !== undefined ? { maxRssMb } : {}),
    ...(first !== undefined ? { firstRequestS: (first - started) / 1000 } : {}),
    requests,
    requestBytes: requests.reduce((n, r) => n + r.bytes, 0),
    stdout,
  }
}

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1]
}
