// Test helpers: loopback HTTP servers with per-path handlers that count what reached them, web tool
// calls through a real registry, result text.
import type { ConfigInput } from '@tack/kernel'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ToolExecutionResult } from '@tack/tools'
import { callTool, createToolsContext } from '@tack/tools/testing'
import type { Context } from 'cordis'
import { afterEach } from 'vitest'
import type { WebToolsConfig } from '../src/config.ts'
import { createWebToolsPlugin } from '../src/plugin.ts'
import type { WebToolOptions } from '../src/web-fetch.ts'

export type Handler = (req: IncomingMessage, res: ServerResponse) => void

export interface TestServer {
  readonly base: string
  readonly port: number
  /** Every request path that reached the server, in order. */
  readonly hits: string[]
  /** Request headers, per hit. */
  readonly headers: IncomingMessage['headers'][]
}

const open: Server[] = []
afterEach(async () => {
  const servers = open.splice(0)
  for (const s of servers) s.closeAllConnections()
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
})

export async function serve(routes: Record<string, Handler>): Promise<TestServer> {
  const hits: string[] = []
  const headers: IncomingMessage['headers'][] = []
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    hits.push(req.url ?? '/')
    headers.push(req.headers)
    const handler = routes[path]
    if (handler) handler(req, res)
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not here')
  })
  open.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { base: `http://127.0.0.1:${port}`, port, hits, headers }
}

export const html =
  (body: string, status = 200): Handler =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body)

export const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) =>
    res.writeHead(status, { location }).end()

/** The registry with the web tools loaded; loopback allowed unless the config says otherwise. */
export async function webContext(
  config: ConfigInput<typeof WebToolsConfig> = {},
  options: WebToolOptions = {},
): Promise<Context> {
  const ctx = await createToolsContext()
  await ctx.plugin(createWebToolsPlugin(options), { allowLoopback: true, env: {}, ...config })
  return ctx
}

export function call(
  ctx: Context,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolExecutionResult> {
  return callTool(ctx, name, args)
}

export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => ('text' in block ? block.text : '')).join('\n')
}
