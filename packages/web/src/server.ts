// `tack serve`'s HTTP server (95-fleet.md F5, docs/decisions/0360-web-view.md) on Node's own http: the
// page (static-files.ts), a JSON read API over the session store and the jobs, server-sent event streams
// that follow them, and the two write actions, cancel and retry. Every request passes the checks of
// access.ts first: the Host header, then the token when the address is not loopback.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SessionStore, SessionSummary } from '@tack/session'
import { allowedHosts, crossSiteRefusal, isLoopback, TOKEN_COOKIE, tokenOf, tokensMatch } from './access.ts'
import { follow, whenChanged } from './follow.ts'
import { JobActionError, type JobSource } from './jobs.ts'
import { type Projection, SessionFeed } from './session-feed.ts'
import { openEventStream } from './sse.ts'
import { staticFile } from './static-files.ts'

export interface WebServerOptions {
  readonly store: SessionStore
  readonly projection: Projection
  /** Where the jobs page reads from; absent: the page says jobs are not connected. */
  readonly jobs?: JobSource
  readonly host: string
  /** 0: any free port. */
  readonly port: number
  /** Required (and only used) when `host` is not a loopback address. */
  readonly token?: string
  readonly pollMs: number
  /**
   * Applied to every JSON answer and stream message before it is sent: tack's secret redactor. The log
   * keeps the values a session saw; the page, like every other output, never shows them.
   */
  readonly redact?: (text: string) => string
}

export interface WebServer {
  /** `http://host:port/` as bound (the real port when 0 was asked). */
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

/** Headers on every answer: nothing from elsewhere runs or frames the page, and no token leaks onward. */
const SAFE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
} as const

class HttpError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  if (!isLoopback(opts.host) && !opts.token)
    throw new Error(`tack serve on ${opts.host} (not a loopback address) needs a token`)
  let hosts: ReturnType<typeof allowedHosts> = new Set()
  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(SAFE_HEADERS)) res.setHeader(name, value)
    handle(req, res, opts, hosts).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500
      const message = error instanceof Error ? error.message : String(error)
      if (!res.headersSent) sendJson(res, opts.redact, status, { error: message })
      else res.end()
    })
  })
  await listen(server, opts.host, opts.port)
  const port = (server.address() as AddressInfo).port
  hosts = allowedHosts(opts.host, port)
  const shown = opts.host.includes(':') ? `[${opts.host}]` : opts.host
  return {
    url: `http://${shown}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  opts: WebServerOptions,
  hosts: ReturnType<typeof allowedHosts>,
): Promise<void> {
  const hostHeader = (req.headers.host ?? '').toLowerCase()
  if (hosts !== 'any' && !hosts.has(hostHeader))
    throw new HttpError(421, `this server does not answer to the host "${hostHeader}"`)
  // Only the path and query are read; a fixed base keeps an odd Host header out of the parse.
  const url = new URL(req.url ?? '/', 'http://tack.invalid')
  if (opts.token !== undefined && !isLoopback(opts.host)) {
    if (!tokensMatch(tokenOf(req, url), opts.token))
      throw new HttpError(401, 'a token is required: open the address tack serve printed')
    if (url.searchParams.has('token')) {
      // The printed address: keep the token in a cookie only this site sends, and drop it from the URL.
      res.writeHead(303, {
        'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(opts.token)}; HttpOnly; SameSite=Strict; Path=/`,
        location: url.pathname,
      })
      res.end()
      return
    }
  }
  if (req.method === 'POST') return act(req, res, url, opts, `http://${hostHeader}`)
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'only GET and POST')
  if (url.pathname === '/favicon.ico') {
    res.writeHead(204)
    res.end()
    return
  }
  const file = staticFile(url.pathname)
  if (file) {
    res.writeHead(200, { 'content-type': file.type })
    res.end(file.body)
    return
  }
  await read(res, url.pathname, opts)
}

async function read(res: ServerResponse, path: string, opts: WebServerOptions): Promise<void> {
  const { store, jobs, pollMs } = opts
  if (path === '/api/sessions') return sendJson(res, opts.redact, 200, await sessionList(store))
  if (path === '/api/sessions/stream') {
    const stream = openEventStream(res, opts.redact)
    follow(
      stream,
      pollMs,
      whenChanged(() => sessionList(store)),
      describe,
    )
    return
  }
  const session = /^\/api\/sessions\/([^/]+)(\/stream)?$/.exec(path)
  if (session) {
    const feed = new SessionFeed(store, idOf(session[1]), opts.projection)
    if (!session[2]) {
      await feed.refresh().catch(notFound)
      return sendJson(res, opts.redact, 200, feed.page())
    }
    // The first read answers the whole page; later ones only when an appended event changed it.
    const next = async () => ((await feed.refresh()) ? feed.page() : undefined)
    follow(openEventStream(res, opts.redact), pollMs, next, describe)
    return
  }
  if (path === '/api/jobs' || path === '/api/jobs/stream') {
    // Without a job source the answer says so (the page shows it), rather than a list that is empty.
    const table = async () =>
      jobs ? { connected: true, jobs: await jobs.listJobs() } : { connected: false, jobs: [] }
    if (path === '/api/jobs') return sendJson(res, opts.redact, 200, await table())
    follow(openEventStream(res, opts.redact), pollMs, whenChanged(table), describe)
    return
  }
  const job = /^\/api\/jobs\/([^/]+)(\/stream)?$/.exec(path)
  if (job && jobs) {
    const id = idOf(job[1])
    const detail = async () => {
      const found = await jobs.getJob(id)
      if (!found) throw new HttpError(404, `no job ${id}`)
      return found
    }
    if (!job[2]) return sendJson(res, opts.redact, 200, await detail())
    follow(openEventStream(res, opts.redact), pollMs, whenChanged(detail), describe)
    return
  }
  throw new HttpError(404, `nothing at ${path}`)
}

/** Cancel and retry: the only writes, refused from another site (access.ts `crossSiteRefusal`). */
async function act(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  opts: WebServerOptions,
  ownOrigin: string,
): Promise<void> {
  const refusal = crossSiteRefusal(req, new Set([ownOrigin]))
  if (refusal) throw new HttpError(403, `refused: ${refusal}`)
  const match = /^\/api\/jobs\/([^/]+)\/(cancel|retry)$/.exec(url.pathname)
  if (!match) throw new HttpError(404, `nothing to do at ${url.pathname}`)
  if (!opts.jobs) throw new HttpError(503, 'jobs are not connected')
  const id = idOf(match[1])
  if (!(await opts.jobs.getJob(id))) throw new HttpError(404, `no job ${id}`)
  try {
    await (match[2] === 'cancel' ? opts.jobs.cancel(id) : opts.jobs.retry(id))
  } catch (error) {
    if (error instanceof JobActionError) throw new HttpError(409, error.message)
    throw error
  }
  sendJson(res, opts.redact, 200, { ok: true, id, action: match[2] })
}

/** Newest activity first, as `tack sessions list` orders them. */
async function sessionList(store: SessionStore): Promise<readonly SessionSummary[]> {
  const list = [...(await store.list())]
  const last = (s: SessionSummary) => s.lastTime ?? s.createdAt
  return list.sort((a, b) => (last(a) < last(b) ? 1 : last(a) > last(b) ? -1 : 0))
}

/** A path segment's id, decoded; a malformed escape is the caller's error, not the server's. */
function idOf(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '')
  } catch {
    throw new HttpError(400, 'a malformed id in the path')
  }
}

function notFound(error: unknown): never {
  if ((error as { code?: unknown }).code === 'SESSION_NOT_FOUND')
    throw new HttpError(404, (error as Error).message)
  throw error
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))

function sendJson(
  res: ServerResponse,
  redact: ((text: string) => string) | undefined,
  status: number,
  body: unknown,
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  const text = JSON.stringify(body)
  res.end(redact ? redact(text) : text)
}
