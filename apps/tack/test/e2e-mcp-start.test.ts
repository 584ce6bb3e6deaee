// When the first request waits for MCP servers (spec 55-mcp.md M2, docs/decisions/0240-mcp-early-start.md),
// through the real binary: the plugin does not hold up the boot; the first prompt waits for each server
// at most its startup bound, counted from its spawn. A server slower to start than tack but within the
// bound is in the first request; one past its bound is not, and the run goes on without it.
import { fileURLToPath } from 'node:url'
import { startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { runTack, sandbox, writeLoopConfig } from './helpers.ts'
import { readFile, writeFile } from 'node:fs/promises'

const fixture = fileURLToPath(new URL('../../../packages/mcp/test/fixtures/server.ts', import.meta.url))

/** The test server of @tack/mcp, reading its first message only after `delayMs`. */
const slowServer = (delayMs: number) => ({
  type: 'stdio',
  command: process.execPath,
  args: [fixture, '--delay-start', String(delayMs)],
})

async function firstRequest(mcp: Record<string, unknown>) {
  const box = await sandbox()
  const server = await startLoopbackServer({ script: [{ kind: 'text', text: 'done' }] })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl)
    await writeFile(config, `${await readFile(config, 'utf8')}  mcp: ${JSON.stringify(mcp)}\n`)
    const started = Date.now()
    const run = await runTack(['run', '--config', config, '--model', 'loop/m', 'hi'], {
      env: box.env,
      cwd: box.workspace,
    })
    return { run, body: server.requests[0]?.rawBody ?? '', ms: Date.now() - started }
  } finally {
    await server.close()
  }
}

describe('the first request and MCP servers still starting', () => {
  test('a server that answers 2 s after its spawn, within its bound, is in the first request', async () => {
    const { run, body } = await firstRequest({ servers: { slow: slowServer(2_000) } })
    expect(run.code, run.stderr).toBe(0)
    expect(body).toContain('mcp__slow__pid')
  }, 60_000)

  test('a server past its startupTimeoutMs is not waited for: the first request goes out without it', async () => {
    const { run, body, ms } = await firstRequest({
      servers: { slow: slowServer(20_000), quick: slowServer(0) },
      startupTimeoutMs: 1_500,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(body).toContain('"role"')
    expect(body).not.toContain('mcp__slow__')
    expect(body).toContain('mcp__quick__pid')
    // not held for the slow server's 20 s (the run ends it when it is over)
    expect(ms).toBeLessThan(15_000)
  }, 60_000)
})
