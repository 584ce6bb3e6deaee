// A scripted model server on loopback for tests and benchmarks: real `node:http` on 127.0.0.1,
// speaking OpenAI Chat Completions (`POST /v1/chat/completions`), Anthropic Messages
// (`POST /v1/messages`) and OpenAI Responses (`POST /v1/responses`, for the Codex CLI in benchmarks), answering each request with the next script entry, and logging every
// request (credential header values replaced) in arrival order.
//
// In-process: `await startLoopbackServer({script})`. As a child process (subprocess tests,
// benchmarks): `npx node packages/llm/src/testing/loopback-server.ts --script file.json
// --port-file f [--log requests.jsonl] [--port 0] [--expect-api-key-env NAME]`; the port is written
// to the port file once listening, and SIGTERM/SIGINT stop it.
import { renameSync, writeFileSync, appendFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { isSecretHeader, REDACTED } from '../secrets.ts'
import { anthropicWire } from './loopback-anthropic.ts'
import { openaiWire } from './loopback-openai.ts'
import { responsesWire } from './loopback-responses.ts'
import {
  type LoggedRequest,
  type LoopbackEntry,
  loadLoopbackScript,
  planAnswer,
  type WireProtocolName,
} from './loopback-script.ts'
import type { RenderContext, WireRenderer } from './loopback-wire.ts'

export interface LoopbackServerOptions {
  readonly script?: readonly LoopbackEntry[]
  /** Default 0 (any free port). */
  readonly port?: number
  /** When set, a request without this key (Bearer or x-api-key) gets a 401. */
  readonly expectApiKey?: string
  /** Called with each request as it is logged (the child-process mode appends it to a file). */
  readonly onRequest?: (request: LoggedRequest) => void
  /**
   * Milliseconds between the SSE frames of a complete answer (default 0: all in one write), so that a
   * client can be interrupted mid-stream (R1's kill points).
   */
  readonly frameDelayMs?: number
  /**
   * Model ids `GET /v1/models` (or `/models`) lists, in the `{data: [{id}]}` shape OpenAI, DeepSeek and
   * Anthropic share; absent: that route is a 404 like any other unknown one.
   */
  readonly models?: readonly string[]
  /**
   * Several conversations on one server, each playing its own script (many sessions of one process
   * against one endpoint, P10 of 90-quality.md): `keyOf` names the conversation a request belongs to
   * (e.g. a marker in its first user message); the first request with a new key gets a fresh copy of
   * `scriptOf(key)`, later ones play on from where that conversation stopped. A request `keyOf` gives no
   * key plays the shared `script`.
   */
  readonly conversations?: {
    readonly keyOf: (request: LoggedRequest) => string | undefined
    readonly scriptOf: (key: string) => readonly LoopbackEntry[]
  }
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** `url + '/v1'`: the base URL to configure a provider with. */
  readonly baseUrl: string
  readonly port: number
  /** Every request received, in order. */
  readonly requests: readonly LoggedRequest[]
  /** Entries not yet played (the shared script's and every started conversation's). */
  readonly remaining: number
  /** The `seq` of each request whose client closed the connection before the response ended. */
  readonly abandoned: readonly number[]
  push(...entries: LoopbackEntry[]): void
  /** Throws while entries remain. */
  assertConsumed(): void
  /** Stops listening and destroys open connections (hanging requests included). */
  close(): Promise<void>
}

const ROUTES: Record<string, WireProtocolName> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
  '/messages': 'anthropic',
  '/v1/responses': 'responses',
  '/responses': 'responses',
}
const WIRES: Record<WireProtocolName, WireRenderer> = {
  openai: openaiWire,
  anthropic: anthropicWire,
  responses: responsesWire,
}

export async function startLoopbackServer(options: LoopbackServerOptions = {}): Promise<LoopbackServer> {
  const script = [...(options.script ?? [])]
  const requests: LoggedRequest[] = []
  const abandoned: number[] = []
  let played = 0
  /** Each conversation's own script and how many of its entries were played (`conversations`). */
  const conversations = new Map<string, { script: LoopbackEntry[]; played: number }>()
  let callCounter = 0
  const nextCallId = () => `call_${++callCounter}`

  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => {
      const raw = Buffer.concat(parts)
      handle(req, res, raw).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: `loopback server: ${String(error)}` } }))
      })
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]
    const protocol = req.method === 'POST' ? (ROUTES[path] ?? 'unknown') : 'unknown'
    const rawBody = raw.toString('utf8')
    let body: unknown
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined
    } catch {
      body = undefined
    }
    const credential = credentialOf(req)
    const authorized = options.expectApiKey === undefined ? undefined : credential === options.expectApiKey
    const received: LoggedRequest = {
      seq: requests.length,
      method: req.method ?? 'GET',
      path,
      protocol,
      headers: loggedHeaders(req),
      ...(authorized !== undefined ? { authorized } : {}),
      body,
      rawBody,
      bytes: raw.length,
    }
    const key = protocol === 'unknown' ? undefined : options.conversations?.keyOf(received)
    const own = key === undefined ? undefined : conversationOf(key)
    const queue = own?.script ?? script
    const entryIndex =
      protocol !== 'unknown' && authorized !== false && queue.length > 0 ? (own?.played ?? played) : undefined
    const logged: LoggedRequest = {
      ...received,
      ...(key !== undefined ? { conversation: key } : {}),
      ...(entryIndex !== undefined ? { entry: entryIndex } : {}),
    }
    requests.push(logged)
    options.onRequest?.(logged)
    res.on('close', () => {
      if (!res.writableFinished) abandoned.push(logged.seq)
    })
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models') && options.models) {
      if (authorized === false) return json(res, 401, { error: { message: 'invalid api key' } })
      return json(res, 200, { object: 'list', data: options.models.map((id) => ({ id, object: 'model' })) })
    }
    if (protocol === 'unknown')
      return json(res, 404, { error: { message: `no route ${req.method} ${path}` } })
    const wire = WIRES[protocol]
    if (authorized === false) return json(res, 401, wire.errorBody('invalid api key', 'authentication_error'))
    let entry = queue.shift()
    if (!entry)
      return json(
        res,
        400,
        wire.errorBody(
          `loopback script${key === undefined ? '' : ` of conversation ${key}`} exhausted at request ${logged.seq + 1}`,
          'script_exhausted',
        ),
      )
    if (own) own.played++
    else played++
    while (entry.kind === 'respond') entry = entry.respond(logged)
    const b = (body ?? {}) as { model?: unknown; stream_options?: { include_usage?: unknown } }
    const ctx: RenderContext = {
      model: typeof b.model === 'string' ? b.model : 'loopback',
      seq: logged.seq,
      includeUsage: protocol !== 'openai' || b.stream_options?.include_usage === true,
    }
    play(entry, wire, ctx, res, credential)
  }

  function conversationOf(key: string): { script: LoopbackEntry[]; played: number } {
    let found = conversations.get(key)
    if (!found) {
      found = { script: [...(options.conversations?.scriptOf(key) ?? [])], played: 0 }
      conversations.set(key, found)
    }
    return found
  }

  const unplayed = () => [...conversations.values()].reduce((n, c) => n + c.script.length, script.length)

  function play(
    entry: Exclude<LoopbackEntry, { kind: 'respond' }>,
    wire: WireRenderer,
    ctx: RenderContext,
    res: ServerResponse,
    credential: string | undefined,
  ): void {
    switch (entry.kind) {
      case 'text':
      case 'tool-calls': {
        const frames = wire.answer(planAnswer(entry, nextCallId, ctx.seq), ctx)
        if (entry.thinkMs) think(res, frames, wire.keepAlive(), entry.thinkMs, entry.keepAliveMs)
        else stream(res, frames, 'end', options.frameDelayMs)
        return
      }
      case 'error': {
        const type = entry.code ?? (entry.status === 429 ? 'rate_limit_error' : 'api_error')
        if (entry.afterChunks === undefined) {
          json(res, entry.status ?? 500, wire.errorBody(entry.message, type))
          return
        }
        const frames = wire.partial(entry.text ?? 'partial answer', entry.afterChunks, ctx)
        stream(res, [...frames, wire.streamError(entry.message, type)], 'end')
        return
      }
      case 'hang':
        // Without text: never answer. With text: start the stream, then go silent.
        if (entry.text) stream(res, wire.partial(entry.text, 1, ctx), 'hold')
        return
      case 'http-error': {
        const message = entry.echoAuth
          ? `Incorrect API key provided: ${credential ?? '(none)'}`
          : `scripted HTTP ${entry.status}`
        const bodyValue = entry.body ?? wire.errorBody(message, errorType(entry.status))
        res.writeHead(entry.status, {
          'content-type': typeof bodyValue === 'string' ? 'text/plain' : 'application/json',
          ...(entry.retryAfter !== undefined ? { 'retry-after': String(entry.retryAfter) } : {}),
          ...(entry.headers ?? {}),
        })
        res.end(typeof bodyValue === 'string' ? bodyValue : JSON.stringify(bodyValue))
        return
      }
      case 'truncate':
        stream(res, wire.partial(entry.text ?? 'partial answer', entry.afterChunks ?? 1, ctx), 'destroy')
        return
      case 'stall':
        if (entry.after === 'accept') return
        stream(
          res,
          wire.partial(entry.text ?? 'partial answer', entry.after === 'chunks' ? 1 : 0, ctx),
          'hold',
        )
        return
      case 'no-finish':
        stream(
          res,
          [...wire.partial(entry.text ?? 'partial answer', 1, ctx), ...wire.endWithoutFinish()],
          'end',
        )
        return
      default: {
        const never: never = entry
        throw new Error(`unknown loopback entry ${JSON.stringify(never)}`)
      }
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    requests,
    get remaining() {
      return unplayed()
    },
    abandoned,
    push: (...entries) => {
      script.push(...entries)
    },
    assertConsumed() {
      const left = unplayed()
      if (left > 0) throw new Error(`the loopback script still has ${left} unplayed entries`)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error'
  if (status === 401) return 'authentication_error'
  if (status === 529) return 'overloaded_error'
  return status >= 500 ? 'api_error' : 'invalid_request_error'
}

function credentialOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice('Bearer '.length)
  const key = req.headers['x-api-key']
  return typeof key === 'string' ? key : undefined
}

function loggedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    out[name] = isSecretHeader(name) ? REDACTED : Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/**
 * Writes SSE frames, then ends the response, holds it open, or destroys the connection mid-stream.
 * With `frameDelayMs`, an ending answer is written one frame at a time.
 */
function stream(
  res: ServerResponse,
  frames: readonly string[],
  then: 'end' | 'hold' | 'destroy',
  frameDelayMs = 0,
): void {
  openStream(res)
  if (frameDelayMs > 0 && then === 'end') {
    const rest = [...frames]
    const next = () => {
      if (res.destroyed) return // the client went away (or was killed) mid-stream
      const frame = rest.shift()
      if (frame === undefined) res.end()
      else res.write(frame, () => setTimeout(next, frameDelayMs))
    }
    next()
    return
  }
  const text = frames.join('')
  switch (then) {
    case 'end':
      res.end(text)
      return
    case 'hold':
      res.write(text)
      return
    case 'destroy':
      res.write(text, () => res.socket?.destroy())
      return
    default: {
      const never: never = then
      throw new Error(`unknown stream ending ${String(never)}`)
    }
  }
}

function openStream(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  res.flushHeaders()
}

/** A thinking model: the answer's first frame, `thinkMs` with a keep-alive every `keepAliveMs`, the rest. */
function think(
  res: ServerResponse,
  frames: readonly string[],
  keepAlive: string,
  thinkMs: number,
  keepAliveMs: number | undefined,
): void {
  openStream(res)
  res.write(frames[0] ?? '')
  const until = Date.now() + thinkMs
  const next = () => {
    const left = until - Date.now()
    setTimeout(step, Math.max(0, Math.min(keepAliveMs ?? left, left)))
  }
  const step = () => {
    if (res.destroyed) return // the client gave up while the model thought
    if (Date.now() >= until) return void res.end(frames.slice(1).join(''))
    res.write(keepAlive)
    next()
  }
  next()
}

/** Child-process mode. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      script: { type: 'string' },
      'port-file': { type: 'string' },
      port: { type: 'string', default: '0' },
      log: { type: 'string' },
      'expect-api-key-env': { type: 'string' },
    },
  })
  if (!values.script) throw new Error('--script <file.json> is required')
  const keyEnv = values['expect-api-key-env']
  const log = values.log
  const server = await startLoopbackServer({
    script: loadLoopbackScript(values.script),
    port: Number(values.port),
    ...(keyEnv ? { expectApiKey: process.env[keyEnv] ?? '' } : {}),
    ...(log ? { onRequest: (r: LoggedRequest) => appendFileSync(log, `${JSON.stringify(r)}\n`) } : {}),
  })
  const portFile = values['port-file']
  if (portFile) {
    writeFileSync(`${portFile}.tmp`, String(server.port))
    renameSync(`${portFile}.tmp`, portFile)
  }
  process.stdout.write(`loopback model server listening on ${server.url}\n`)
  const stop = () => {
    server.close().then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    process.stderr.write(`loopback-server: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
}
