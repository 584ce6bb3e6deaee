// Servers on loopback built in the test with the SDK (its low-level Server): Streamable HTTP
// (stateless, one server per request) and legacy SSE — tools listed and called over each, the
// configured headers sent with every request.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { afterEach, describe, expect, it } from 'vitest'
import { startHttpMcpServer } from './fixtures/http-server.ts'
import { toolServer } from './fixtures/tool-server.ts'
import { call, mcpContext, textOf } from './helpers.ts'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** The fixture's Streamable HTTP server (fixtures/http-server.ts), closed after the test. */
async function httpServer(
  locked: { now: boolean } = { now: false },
): Promise<{ url: string; headers: IncomingHttpHeaders[] }> {
  const server = await startHttpMcpServer({ locked, instructions: 'over http' })
  closers.push(server.close)
  return server
}

/** A legacy SSE server: GET /sse opens the stream, POST /messages?sessionId=… carries the client's messages. */
async function sseServer(): Promise<{ url: string; headers: IncomingHttpHeaders[] }> {
  const headers: IncomingHttpHeaders[] = []
  const sessions = new Map<string, SSEServerTransport>()
  const server = createServer(async (req, res) => {
    headers.push(req.headers)
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res)
      sessions.set(transport.sessionId, transport)
      await toolServer({}).connect(transport)
      return
    }
    const transport = sessions.get(url.searchParams.get('sessionId') ?? '')
    if (transport) await transport.handlePostMessage(req, res)
    else res.writeHead(404).end()
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`, headers }
}

describe('legacy SSE', () => {
  it('lists and calls tools over SSE with the configured headers', async () => {
    const { url, headers } = await sseServer()
    const { ctx, warnings } = await mcpContext({
      servers: { old: { type: 'sse', url, headers: { 'X-Api-Key': 'k1' } } },
    })
    expect(warnings).toEqual([])
    expect(textOf(await call(ctx, 'mcp__old__huge', { bytes: 2 }))).toBe('xx')
    expect(headers.length).toBeGreaterThan(1)
    expect(headers.every((h) => h['x-api-key'] === 'k1')).toBe(true)
  }, 30_000)
})

describe('Streamable HTTP', () => {
  it('lists and calls tools over HTTP with the configured headers', async () => {
    const { url, headers } = await httpServer()
    const { ctx, warnings } = await mcpContext({
      servers: { web: { type: 'http', url, headers: { Authorization: 'Bearer test-token' } } },
    })
    expect(warnings).toEqual([])
    expect(ctx.tools.get('mcp__web__huge')).toBeDefined()
    expect(textOf(await call(ctx, 'mcp__web__huge', { bytes: 3 }))).toBe('xxx')
    const failed = await call(ctx, 'mcp__web__fail', {})
    expect(failed.isError).toBe(true)
    expect(textOf(failed)).toBe('the thing failed')
    expect(headers.length).toBeGreaterThan(1)
    expect(headers.every((h) => h.authorization === 'Bearer test-token')).toBe(true)
  }, 30_000)

  it('a 401 on a call (a token that expired): the model reads that the server needs a sign-in and how to pass a token', async () => {
    const locked = { now: false }
    const { url } = await httpServer(locked)
    const { ctx } = await mcpContext({ servers: { web: { type: 'http', url } } })
    expect(textOf(await call(ctx, 'mcp__web__huge', { bytes: 1 }))).toBe('x')
    locked.now = true
    const failed = await call(ctx, 'mcp__web__huge', { bytes: 1 })
    expect(failed.isError).toBe(true)
    expect(textOf(failed)).toMatch(
      /^MCP server "web": it needs a sign-in \(HTTP 401\), and tack cannot sign in/,
    )
    expect(textOf(failed)).toContain('"Authorization": "Bearer <token>"')
  }, 30_000)

  it('an unreachable URL: one line, no tools, the session goes on', async () => {
    const { url } = await httpServer()
    const dead = url.replace(/:\d+\//, ':1/')
    const { ctx, warnings } = await mcpContext({ servers: { gone: { type: 'http', url: dead } } })
    expect(ctx.tools.schemas()).toEqual([])
    expect(warnings.some((w) => w.startsWith('MCP server "gone" did not start'))).toBe(true)
  }, 30_000)
})
