// An http or sse MCP server that needs a sign-in (spec 55-mcp.md M1, docs/decisions/0240-mcp-early-start.md),
// through the real binary: a loopback server answering every request with HTTP 401 and a
// `WWW-Authenticate: Bearer` challenge. tack has no OAuth flow: one line tells the person the server
// needs a sign-in tack cannot do and how to pass a token (`headers` with Authorization); the model reads
// the same in the server's instructions section of its first request; the run goes on.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile, writeFile } from 'node:fs/promises'
import { startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, test } from 'vitest'
import { runTack, sandbox, writeLoopConfig } from './helpers.ts'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A server that answers every request 401, as one behind OAuth does before a sign-in. */
async function lockedServer(): Promise<string> {
  const server = createServer((req, res) => {
    req.resume()
    res
      .writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': 'Bearer realm="mcp", error="invalid_token"',
      })
      .end('{"error":"invalid_token","error_description":"sign in first"}')
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe.each(['http', 'sse'] as const)('an %s MCP server answering 401', (type) => {
  test('one line for the person, a note for the model, and the run goes on', async () => {
    const box = await sandbox()
    const base = await lockedServer()
    const model = await startLoopbackServer({ script: [{ kind: 'text', text: 'done' }] })
    try {
      const config = await writeLoopConfig(box.root, model.baseUrl)
      const locked = { type, url: `${base}/${type === 'sse' ? 'sse' : 'mcp'}` }
      await writeFile(
        config,
        `${await readFile(config, 'utf8')}  mcp: ${JSON.stringify({ servers: { locked } })}\n`,
      )
      const run = await runTack(['run', '--config', config, '--model', 'loop/m', 'hi'], {
        env: box.env,
        cwd: box.workspace,
      })
      expect(run.code, run.stderr).toBe(0)
      const lines = run.stderr.split('\n').filter((line) => line.includes('"locked"'))
      expect(lines, run.stderr).toHaveLength(1)
      expect(lines[0]).toMatch(
        /^tack: mcp: MCP server "locked" did not start: it needs a sign-in \(HTTP 401\)/,
      )
      expect(lines[0]).toContain('tack cannot sign in')
      expect(lines[0]).toContain('"Authorization": "Bearer <token>"')
      expect(lines[0]).toContain('plugins.mcp.servers.locked')
      const body = model.requests[0]?.rawBody ?? ''
      expect(body).toContain('## locked')
      expect(body).toContain('it needs a sign-in (HTTP 401), which tack cannot do')
      expect(body).not.toContain('mcp__locked__')
    } finally {
      await model.close()
    }
  }, 60_000)
})
