// Time to first request with MCP servers: the real `tack run` binary (bench/lib/tack-run.ts) answering
// one text reply from the loopback model, alternated run by run in three variants: no server; `count`
// stdio servers in `plugins.mcp.servers` of its --config file, as configured (the session waits for them,
// 55-mcp.md M2); and the same servers with `startupTimeoutMs: 1`, so the first request does not wait for
// them (what tack itself adds: loading @tack/mcp, spawning the servers). The figure is the time from the
// spawn to the first request's arrival at the loopback server. Beside them, the servers' own start: the
// same `count` servers started side by side by raw SDK clients in this process, until each has answered
// `initialize` and `tools/list`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { median } from '../lib/measure-run.ts'
import { measureTackRun } from '../lib/tack-run.ts'
import { type ServerKind, serversMap, stdioServer } from './servers.ts'

type Variant = 'none' | 'waited' | 'unwaited'

export interface FirstRequest {
  /** Median milliseconds to the first request in each variant. */
  readonly none: number
  readonly waited: number
  readonly unwaited: number
  /** Median milliseconds for `count` raw SDK clients to start their servers and list their tools. */
  readonly serversStart: number
  /** Whether every run exited 0 and its first request offered the servers' tools (all of them when waited, none without). */
  readonly ok: boolean
}

async function once(kind: ServerKind, count: number, variant: Variant): Promise<{ ms: number; ok: boolean }> {
  const servers = serversMap(kind, variant === 'none' ? 0 : count)
  const mcp = { servers, ...(variant === 'unwaited' ? { startupTimeoutMs: 1 } : {}) }
  const r = await measureTackRun({
    script: [{ kind: 'text', text: 'hello' }],
    task: 'say hello',
    ...(variant === 'none' ? {} : { pluginsYaml: `  mcp: ${JSON.stringify(mcp)}\n` }),
  })
  const mcpTools = new Set(r.requests[0]?.rawBody.match(/mcp__s\d+__echo/g) ?? []).size
  // Waited for, each server's echo is in the first request: that request did not go out before them.
  const toolsOk = variant === 'none' ? mcpTools === 0 : variant === 'waited' ? mcpTools === count : true
  const ok = r.exitCode === 0 && r.firstRequestS !== undefined && toolsOk
  return { ms: (r.firstRequestS ?? Number.NaN) * 1000, ok }
}

/** Milliseconds until `count` servers started side by side have each answered `tools/list`. */
async function rawStart(kind: ServerKind, count: number): Promise<number> {
  const server = stdioServer(kind)
  const clients = Array.from({ length: count }, () => new Client({ name: 'bench-raw', version: '1.0.0' }))
  const start = performance.now()
  await Promise.all(
    clients.map(async (client) => {
      await client.connect(
        new StdioClientTransport({ command: server.command, args: server.args, stderr: 'ignore' }),
      )
      await client.listTools()
    }),
  )
  const ms = performance.now() - start
  await Promise.all(clients.map((c) => c.close()))
  return ms
}

export async function measureFirstRequest(opts: {
  runs: number
  count: number
  kind: ServerKind
}): Promise<FirstRequest> {
  const variants: Variant[] = ['none', 'waited', 'unwaited']
  // One of each first, not counted: the file cache and the build are warm for all.
  for (const v of variants) await once(opts.kind, opts.count, v)
  await rawStart(opts.kind, opts.count)
  const times: Record<Variant, number[]> = { none: [], waited: [], unwaited: [] }
  const starts: number[] = []
  let ok = true
  for (let i = 0; i < opts.runs; i++) {
    // Alternated, and the order rotates, so a load spike on the machine hits every variant alike.
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(i + k) % variants.length] as Variant
      const r = await once(opts.kind, opts.count, v)
      ok &&= r.ok
      times[v].push(r.ms)
    }
    starts.push(await rawStart(opts.kind, opts.count))
  }
  return {
    none: median(times.none),
    waited: median(times.waited),
    unwaited: median(times.unwaited),
    serversStart: median(starts),
    ok,
  }
}
