// Time to first request with MCP servers: the real `tack run` binary (bench/lib/tack-run.ts) answering
// one text reply from the loopback model, with no server and with `count` stdio servers in
// `plugins.mcp.servers` of its --config file, alternated run by run. The figure is the time from the
// spawn to the first request's arrival at the loopback server.
import { median } from '../lib/measure-run.ts'
import { measureTackRun } from '../lib/tack-run.ts'
import { type ServerKind, serversMap } from './servers.ts'

export interface FirstRequest {
  /** Median milliseconds to the first request without servers, and with them. */
  readonly none: number
  readonly withServers: number
  /** Whether every run exited 0 and its first request offered the servers' tools (or none, without). */
  readonly ok: boolean
}

async function once(kind: ServerKind, count: number): Promise<{ ms: number; ok: boolean }> {
  const servers = serversMap(kind, count)
  const r = await measureTackRun({
    script: [{ kind: 'text', text: 'hello' }],
    task: 'say hello',
    ...(count > 0 ? { pluginsYaml: `  mcp:\n    servers: ${JSON.stringify(servers)}\n` } : {}),
  })
  const mcpTools = new Set(r.requests[0]?.rawBody.match(/mcp__s\d+__echo/g) ?? []).size
  // Each server's echo is in the first request, so that request did not go out before the servers.
  const ok =
    r.exitCode === 0 && r.firstRequestS !== undefined && (count === 0 ? mcpTools === 0 : mcpTools === count)
  return { ms: (r.firstRequestS ?? Number.NaN) * 1000, ok }
}

export async function measureFirstRequest(opts: {
  runs: number
  count: number
  kind: ServerKind
}): Promise<FirstRequest> {
  // One of each first, not counted: the file cache and the build are warm for both.
  await once(opts.kind, 0)
  await once(opts.kind, opts.count)
  const none: number[] = []
  const withServers: number[] = []
  let ok = true
  for (let i = 0; i < opts.runs; i++) {
    // Alternated, and which goes first alternates too, so a load spike on the machine hits both alike.
    const order = i % 2 === 0 ? [0, opts.count] : [opts.count, 0]
    for (const count of order) {
      const r = await once(opts.kind, count)
      ok &&= r.ok
      ;(count === 0 ? none : withServers).push(r.ms)
    }
  }
  return { none: median(none), withServers: median(withServers), ok }
}
