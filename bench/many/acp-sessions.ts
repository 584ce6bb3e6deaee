// One measured `tack acp` process serving N scripted 20-read sessions (P10 of 90-quality.md): the real
// binary, driven over its stdio by the ACP SDK's own client app as an editor drives it, against one
// loopback model server that plays each session its own script (its `conversations`, keyed by a marker
// in the session's prompt). The sessions run all at once (`concurrent`) or one after another
// (`sequential`, the baseline). CPU and peak RSS are the process's own, read from /proc while it lives.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk'
import { startLoopbackServer } from '@tack/llm/testing'
import { TACK_BIN } from '../lib/tack-run.ts'
import { prepareModules, READS, twentyReads } from '../overhead/run.ts'

export type Schedule = 'concurrent' | 'sequential'

export interface ManyMeasure {
  readonly sessions: number
  readonly schedule: Schedule
  /** CPU (user+sys) of the process from `initialize` answered to the last prompt answered. */
  readonly sessionsCpuS: number
  /** CPU of the whole process up to the last prompt answered (its boot included). */
  readonly totalCpuS: number
  /** The process's peak RSS (VmHWM) when the last prompt was answered. */
  readonly peakRssMb: number
  readonly wallS: number
  /** Sessions that ended `end_turn` after exactly their 21 requests. */
  readonly completed: number
  /** Requests the model server saw, over all sessions. */
  readonly requests: number
  /** `session/request_permission` questions asked (reads should need none). */
  readonly permissionRequests: number
}

const TICKS_PER_S = 100 // USER_HZ, what /proc/<pid>/stat counts in on Linux
const marker = (i: number) => `(bench session s${i})`
const keyOf = (rawBody: string) => /\(bench session (s\d+)\)/.exec(rawBody)?.[1]

export async function measureAcpSessions(opts: {
  sessions: number
  schedule: Schedule
  /** Each session is closed (`session/close`) once its prompt is answered, as a fleet worker ends a job. */
  close?: boolean
  /** `own`: each session in a folder of its own (a fleet worker's jobs), each folder booted on first use. */
  folders?: 'shared' | 'own'
  /** Node flags (a probe's `--heap-prof`); without them the binary runs as a user runs it. */
  nodeFlags?: readonly string[]
  /** Runs after the last prompt, while the process still lives (a probe signals it for a heap snapshot). */
  afterSessions?: (pid: number, workspace: string) => Promise<void>
}): Promise<ManyMeasure> {
  const server = await startLoopbackServer({
    conversations: { keyOf: (r) => keyOf(r.rawBody), scriptOf: () => twentyReads() },
  })
  const root = await mkdtemp(join(tmpdir(), 'tack-bench-many-'))
  const workspace = join(root, 'ws')
  const home = join(root, 'home')
  await mkdir(workspace, { recursive: true })
  await mkdir(home, { recursive: true })
  await prepareModules(workspace)
  const folderOf = async (i: number) => {
    if (opts.folders !== 'own') return workspace
    const own = join(root, `ws-${i}`)
    await prepareModules(own)
    return own
  }
  const folders = await Promise.all(Array.from({ length: opts.sessions }, (_, i) => folderOf(i)))
  const config = join(root, 'bench.yml')
  await writeFile(
    config,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  const argv = ['acp', '--config', config, '--model', 'loop/bench']
  const [program, args] = opts.nodeFlags
    ? [process.execPath, [...opts.nodeFlags, TACK_BIN, ...argv]]
    : [TACK_BIN, argv]
  const child = spawn(program, args, {
    cwd: workspace,
    // This Node first on PATH: the launcher execs `node`, so the pid stays the process measured.
    env: {
      PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
      HOME: home,
      TACK_HOME: join(root, 'tack-home'),
      LANG: 'C.UTF-8',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let permissionRequests = 0
  const app = client({ name: 'tack-bench-many' })
    .onNotification(methods.client.session.update, () => {})
    .onRequest(methods.client.session.requestPermission, async () => {
      permissionRequests++
      return { outcome: { outcome: 'selected', optionId: 'allow-once' } }
    })
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  )
  try {
    await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })
    const pid = child.pid as number
    const cpuAtStart = await cpuSeconds(pid)
    const started = performance.now()
    const one = async (i: number) => {
      const { sessionId } = await connection.agent.request(methods.agent.session.new, {
        cwd: folders[i],
        mcpServers: [],
      })
      const { stopReason } = await connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: `read every module under src ${marker(i)}` }],
      })
      if (opts.close) await connection.agent.request(methods.agent.session.close, { sessionId })
      return stopReason
    }
    const stops: string[] = []
    if (opts.schedule === 'concurrent')
      stops.push(...(await Promise.all(Array.from({ length: opts.sessions }, (_, i) => one(i)))))
    else for (let i = 0; i < opts.sessions; i++) stops.push(await one(i))
    const wallS = (performance.now() - started) / 1000
    const totalCpuS = await cpuSeconds(pid)
    const peakRssMb = await peakRss(pid)
    await opts.afterSessions?.(pid, workspace)
    const perSession = new Map<string, number>()
    for (const r of server.requests)
      if (r.conversation) perSession.set(r.conversation, (perSession.get(r.conversation) ?? 0) + 1)
    const completed = stops.filter((s, i) => s === 'end_turn' && perSession.get(`s${i}`) === READS + 1).length
    return {
      sessions: opts.sessions,
      schedule: opts.schedule,
      sessionsCpuS: totalCpuS - cpuAtStart,
      totalCpuS,
      peakRssMb,
      wallS,
      completed,
      requests: server.requests.length,
      permissionRequests,
    }
  } catch (error) {
    process.stderr.write(stderr)
    throw error
  } finally {
    child.stdin.end()
    const code = await exited
    if (code !== 0) process.stderr.write(`tack acp exited ${code}\n${stderr}`)
    await server.close()
    await rm(root, { recursive: true, force: true })
  }
}

/** User plus system CPU of a live process, from /proc/<pid>/stat (fields 14 and 15). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S
}

/** The peak resident set (VmHWM) of a live process, in MB. */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1])
  return kb / 1024
}
