// What the HTTP client costs per model request (docs/decisions/0068-heap-growth-and-step-cost.md):
// Node's fetch (undici, what the AI SDK calls) against a keep-alive `node:http` request wrapped in a
// standard `Response` (what a `fetch` option handed to the SDK would have to return), and bare
// `node:http` as the floor. Each POSTs a ~52 KB JSON body (the long session's request at ~100 reads)
// to a server in another process answering a five-chunk SSE tool call, and reads the body to its end.
// Client CPU (user + system) per request, rounds alternated, median of the rounds. Not part of
// `npm run bench`.
//
//   node bench/long/http-client.ts [rounds=7]
import { spawn } from 'node:child_process'
import { Agent, createServer, type IncomingMessage, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { median } from '../lib/measure-run.ts'

if (process.argv[2] === 'serve') {
  const delta = (d: object, extra: object = {}) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: d, ...extra }] })}\n\n`
  const call = (args: string) => ({ tool_calls: [{ index: 0, function: { arguments: args } }] })
  const sse = [
    delta({
      role: 'assistant',
      tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '' } }],
    }),
    delta(call('{"file_path":"sr')),
    delta(call('c/module-1.ts"}')),
    delta({}, { finish_reason: 'tool_calls' }),
    `data: ${JSON.stringify({ id: 'x', choices: [], usage: { prompt_tokens: 1000, completion_tokens: 20 } })}\n\n`,
    'data: [DONE]\n\n',
  ]
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const line of sse) res.write(line)
      res.end()
    })
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port))
} else {
  const rounds = Number(process.argv[2] ?? 7)
  const server = spawn(process.execPath, [import.meta.filename, 'serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve) =>
    server.stdout.once('data', (d) => resolve(Number(String(d)))),
  )
  const url = `http://127.0.0.1:${port}/v1/chat/completions`
  const messages = Array.from({ length: 200 }, (_, i) => ({
    role: 'user',
    content: `export const value${i} = ${i * 1000}`.repeat(8),
  }))
  const body = JSON.stringify({ model: 'm', stream: true, messages })
  const headers = { 'content-type': 'application/json', authorization: 'Bearer x' }
  const agent = new Agent({ keepAlive: true })
  const post = () =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        resolve,
      )
      req.on('error', reject)
      req.end(body)
    })
  const drain = async (response: Response) => {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let chars = 0
    for (let next = await reader.read(); !next.done; next = await reader.read())
      chars += decoder.decode(next.value, { stream: true }).length
    return chars
  }
  const clients: Record<string, () => Promise<number>> = {
    'fetch (undici)': async () => drain(await fetch(url, { method: 'POST', headers, body })),
    'node:http → Response': async () => {
      const res = await post()
      const out = new Headers()
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, String(v))
      return drain(
        new Response(Readable.toWeb(res) as ReadableStream, { status: res.statusCode ?? 0, headers: out }),
      )
    },
    'node:http bare': async () => {
      const res = (await post()).setEncoding('utf8')
      let chars = 0
      for await (const piece of res) chars += (piece as string).length
      return chars
    },
  }
  const REQUESTS = 300
  const samples = new Map<string, number[]>()
  for (let round = 0; round < rounds; round++) {
    for (const [name, client] of Object.entries(clients)) {
      for (let i = 0; i < 20; i++) await client() // warm the connection and the code
      const before = process.cpuUsage()
      for (let i = 0; i < REQUESTS; i++) await client()
      const used = process.cpuUsage(before)
      samples.set(name, [...(samples.get(name) ?? []), (used.user + used.system) / REQUESTS / 1000])
    }
  }
  server.kill()
  console.log(
    `client CPU per request (${body.length} B body), median of ${rounds} alternated rounds of ${REQUESTS}`,
  )
  for (const [name, ms] of samples) console.log(`  ${name.padEnd(22)} ${median(ms).toFixed(3)} ms`)
}
