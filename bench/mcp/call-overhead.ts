// Per-call overhead of an MCP tool call through tack: `ctx.tools.execute` of `mcp__s1__echo` on a context
// booted in process the way `tack run` boots one (apps/tack/src/boot.ts: every core and catalog plugin,
// the real @tack/mcp among them, permission mode yolo so nobody is asked), against a raw SDK
// `Client.callTool` of `echo` on a second process of the same server, alternated call by call.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { boot } from '../../apps/tack/src/boot.ts'
import { resolveSettings } from '../../apps/tack/src/settings.ts'
import { median } from '../lib/measure-run.ts'
import { pairedTimes } from '../lib/paired.ts'
import { type ServerKind, stdioServer } from './servers.ts'

export interface CallOverhead {
  /** Median milliseconds of one call through tack, of one raw SDK call, and of their per-call difference. */
  readonly tack: number
  readonly raw: number
  readonly extra: number
  /** Whether every call answered the echo. */
  readonly ok: boolean
}

const ARGS = { message: 'hello from the bench' }
const ANSWER = `Echo: ${ARGS.message}`

export async function measureCallOverhead(opts: {
  calls: number
  warmup: number
  kind: ServerKind
}): Promise<CallOverhead> {
  const root = await mkdtemp(join(tmpdir(), 'tack-bench-mcp-'))
  const workspace = join(root, 'ws')
  await mkdir(workspace, { recursive: true })
  await mkdir(join(root, 'home'), { recursive: true })
  const server = stdioServer(opts.kind)
  const config = join(root, 'bench.json')
  await writeFile(config, JSON.stringify({ plugins: { mcp: { servers: { s1: server } } } }))
  const env = { PATH: process.env.PATH ?? '', HOME: join(root, 'home'), TACK_HOME: join(root, 'tack-home') }
  const resolved = await resolveSettings({ config, 'permission-mode': 'yolo' }, env, workspace)
  const booted = await boot({
    ...resolved,
    env,
    noSession: true,
    warn: (line) => process.stderr.write(`${line}\n`),
  })
  // What `tack run`'s first prompt waits for (docs/decisions/0240-mcp-early-start.md): the boot no longer does.
  await (booted.ctx.get('mcp') as { ready?: Promise<void> } | undefined)?.ready
  const client = new Client({ name: 'bench-raw', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({ command: server.command, args: server.args, stderr: 'ignore' }),
  )
  try {
    let calls = 0
    let ok = true
    const viaTack = async (): Promise<number> => {
      const start = performance.now()
      const result = await booted.ctx.tools.execute({
        callId: `call_${++calls}`,
        name: 'mcp__s1__echo',
        rawArguments: JSON.stringify(ARGS),
        cwd: workspace,
        signal: new AbortController().signal,
      })
      const ms = performance.now() - start
      ok &&= !result.isError && result.content.map((b) => ('text' in b ? b.text : '')).join('') === ANSWER
      return ms
    }
    const raw = async (): Promise<number> => {
      const start = performance.now()
      const result = await client.callTool({ name: 'echo', arguments: ARGS })
      const ms = performance.now() - start
      const content = result.content as Array<{ type: string; text?: string }>
      ok &&= !result.isError && content[0]?.text === ANSWER
      return ms
    }
    const times = await pairedTimes(viaTack, raw, { rounds: opts.calls, warmup: opts.warmup })
    return {
      tack: median(times.measured),
      raw: median(times.baseline),
      extra: median(times.extra),
      ok,
    }
  } finally {
    await client.close()
    await booted.close()
    await rm(root, { recursive: true, force: true })
  }
}
