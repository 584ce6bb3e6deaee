// An OpenAI-compatible endpoint that streams one long answer slowly: `words` words, one Chat Completions
// chunk every `intervalMs`, so a terminal UI is busy rendering while the bench types into it. (The
// loopback test server sends an answer in two frames; a latency bench needs a long, steady stream.)
// The words are lowercase letters only, so the bench's uppercase keystrokes can never be mistaken for
// answer text.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface StreamServer {
  /** The base URL to configure a provider with (`…/v1`). */
  readonly baseUrl: string
  /** How many requests arrived. */
  readonly requests: () => number
  close(): Promise<void>
}

const WORDS = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'do']

export async function startStreamServer(opts: { words: number; intervalMs: number }): Promise<StreamServer> {
  let requests = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      requests++
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const send = (delta: Record<string, unknown>, finish: string | null = null, usage?: unknown) =>
        res.write(
          `data: ${JSON.stringify({
            id: `bench-${requests}`,
            object: 'chat.completion.chunk',
            created: 1700000000,
            model: 'bench',
            choices: [{ index: 0, delta, finish_reason: finish }],
            ...(usage ? { usage } : {}),
          })}\n\n`,
        )
      send({ role: 'assistant', content: '' })
      let sent = 0
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer)
        if (sent < opts.words) {
          // a line break every 12 words, so the answer grows in lines as a real one does
          const sep = sent % 12 === 11 ? '\n' : ' '
          send({ content: WORDS[sent % WORDS.length] + sep })
          sent++
          return
        }
        clearInterval(timer)
        send({}, 'stop', {
          prompt_tokens: 100,
          completion_tokens: opts.words,
          total_tokens: 100 + opts.words,
        })
        res.end('data: [DONE]\n\n')
      }, opts.intervalMs)
      res.on('close', () => clearInterval(timer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
