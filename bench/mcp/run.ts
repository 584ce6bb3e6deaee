// MCP (90-quality, the MCP row; 55-mcp.md M2): what configured MCP servers cost a session.
//
//   npx node bench/mcp/run.ts [--runs N] [--servers N] [--calls N] [--server echo|everything]
//
// (a) time to first request of the real `tack run` binary with no server and with --servers (default 5)
//     stdio servers in `plugins.mcp.servers`, medians of --runs (default 7) alternated runs, and their ratio
//     (goal ≤ 1.2×); beside them the same servers not waited for (`startupTimeoutMs: 1`: tack's own
//     share) and the servers' own start by raw SDK clients (the wait's floor);
// (b) per-call overhead of `mcp__s1__echo` through `ctx.tools.execute` on a context booted in process as
//     `tack run` boots one, over a raw SDK `Client.callTool` to the same server, median of --calls
//     (default 200) alternated calls (goal ≤ 2 ms).
// Figures only: a missed goal is printed as such; the run fails only when a run or a call fails.
import { parseArgs } from 'node:util'
import { measureCallOverhead } from './call-overhead.ts'
import { measureFirstRequest } from './first-request.ts'
import { serverKindOf } from './servers.ts'

const FIRST_REQUEST_GOAL = 1.2
const CALL_GOAL_MS = 2

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.BENCH_RUNS ?? '7' },
    servers: { type: 'string', default: '5' },
    calls: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    server: { type: 'string' },
  },
})
const int = (name: string, value: string, min: number, max: number): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max) {
    process.stderr.write(`--${name} must be an integer from ${min} to ${max} (got "${value}")\n`)
    process.exit(2)
  }
  return n
}
const runs = int('runs', values.runs, 1, 1000)
const count = int('servers', values.servers, 1, 50)
const calls = int('calls', values.calls, 1, 100_000)
const warmup = int('warmup', values.warmup, 0, 10_000)
const kind = serverKindOf(values.server)
const verdict = (met: boolean) => (met ? 'ok' : 'GOAL MISSED')

const first = await measureFirstRequest({ runs, count, kind })
const ratio = first.waited / first.none
const servers = `${count} stdio servers`
console.log(
  `MCP time to first request (tack run, ${kind} server, medians of ${runs} alternated runs)${first.ok ? '' : ' (A RUN FAILED)'}`,
)
console.log(`  no server                           ${first.none.toFixed(0)} ms`)
console.log(
  `  ${servers.padEnd(34)}  ${first.waited.toFixed(0)} ms   ratio ${ratio.toFixed(2)}×  (goal ≤ ${FIRST_REQUEST_GOAL.toFixed(2)}×) ${verdict(ratio <= FIRST_REQUEST_GOAL)}`,
)
console.log(
  `  ${`${servers}, not waited for`.padEnd(34)}  ${first.unwaited.toFixed(0)} ms   ratio ${(first.unwaited / first.none).toFixed(2)}×  (startupTimeoutMs: 1)`,
)
console.log(
  `  ${`${servers} started by raw SDK`.padEnd(34)}  ${first.serversStart.toFixed(0)} ms   (side by side, to tools/list)`,
)

const call = await measureCallOverhead({ calls, warmup, kind })
console.log(
  `MCP per-call overhead (${calls} alternated calls of echo, medians)${call.ok ? '' : ' (A CALL FAILED)'}`,
)
console.log(`  ctx.tools.execute     ${call.tack.toFixed(2)} ms`)
console.log(`  raw SDK callTool      ${call.raw.toFixed(2)} ms`)
console.log(
  `  median extra          ${call.extra.toFixed(2)} ms per call (goal ≤ ${CALL_GOAL_MS} ms) ${verdict(call.extra <= CALL_GOAL_MS)}`,
)
console.log(
  JSON.stringify({
    id: 'mcp',
    servers: count,
    firstRequestNoneMs: first.none,
    firstRequestServersMs: first.waited,
    firstRequestUnwaitedMs: first.unwaited,
    serversStartMs: first.serversStart,
    firstRequestRatio: ratio,
    callTackMs: call.tack,
    callRawMs: call.raw,
    callExtraMs: call.extra,
    ok: first.ok && call.ok,
  }),
)
if (!first.ok || !call.ok) process.exitCode = 1
