// The loopback scripted model server itself: its wire formats, its request log, in-process and as
// a child process.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { type LoopbackServer, startLoopbackServer } from '../src/testing/index.ts'
import { adapterFor, CANARY, drain, MODEL_OF, request, signal } from './helpers.ts'

let server: LoopbackServer | undefined
let child: ChildProcess | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  if (child && child.exitCode === null) child.kill('SIGKILL')
  child = undefined
})

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

describe('loopback server', () => {
  test('P4 logs every request in order: method, path, headers without the credential, parsed and raw body', async () => {
    server = await startLoopbackServer({
      script: [
        { kind: 'text', text: 'a' },
        { kind: 'text', text: 'b' },
      ],
    })
    await drain(await adapterFor(server).stream(request(MODEL_OF.openai), signal()))
    await drain(await adapterFor(server).stream(request(MODEL_OF.anthropic), signal()))
    const [first, second] = server.requests
    expect(first).toMatchObject({
      seq: 0,
      method: 'POST',
      path: '/v1/chat/completions',
      protocol: 'openai',
      entry: 0,
    })
    expect(second).toMatchObject({ seq: 1, path: '/v1/messages', protocol: 'anthropic', entry: 1 })
    expect(first.headers.authorization).toBe('[redacted]')
    expect(second.headers['x-api-key']).toBe('[redacted]')
    expect(second.headers['anthropic-version']).toBe('2023-06-01')
    expect(first.body).toEqual(JSON.parse(first.rawBody))
    expect(first.bytes).toBe(Buffer.byteLength(first.rawBody))
    expect(JSON.stringify(server.requests)).not.toContain(CANARY)
    server.assertConsumed()
  })

  test('frameDelayMs spaces the frames of an answer; the whole answer still arrives', async () => {
    server = await startLoopbackServer({ script: [{ kind: 'text', text: 'spaced out' }], frameDelayMs: 40 })
    const response = await post(`${server.baseUrl}/chat/completions`, { model: 'm', stream: true })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const arrivals: number[] = []
    let text = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      arrivals.push(performance.now())
      text += new TextDecoder().decode(value)
    }
    expect(arrivals.length).toBeGreaterThanOrEqual(3)
    expect(arrivals.at(-1)! - arrivals[0]).toBeGreaterThanOrEqual(40 * (arrivals.length - 2))
    expect(text).toContain('[DONE]')
    const deltas = [...text.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1])
    expect(deltas.join('')).toBe('spaced out')
  })

  test('OpenAI wire: SSE data chunks ending in [DONE], usage only when stream_options asks', async () => {
    const usage = { inputTokens: 10, outputTokens: 2 }
    server = await startLoopbackServer({
      script: [
        { kind: 'text', text: 'hi', usage },
        { kind: 'text', text: 'hi', usage },
      ],
    })
    const withUsage = await (
      await post(`${server.baseUrl}/chat/completions`, {
        model: 'm',
        stream: true,
        stream_options: { include_usage: true },
      })
    ).text()
    const frames = withUsage.trim().split('\n\n')
    expect(frames.every((f) => f.startsWith('data: '))).toBe(true)
    expect(frames.at(-1)).toBe('data: [DONE]')
    expect(JSON.parse(frames.at(-2)!.slice(6))).toMatchObject({ choices: [], usage: { prompt_tokens: 10 } })
    const without = await (
      await post(`${server.baseUrl}/chat/completions`, { model: 'm', stream: true })
    ).text()
    expect(without).not.toContain('prompt_tokens')
  })

  test('Anthropic wire: message_start, content blocks, message_delta, message_stop', async () => {
    server = await startLoopbackServer({
      script: [
        { kind: 'tool-calls', reasoning: 'r', text: 't', calls: [{ name: 'x', args: {} }], signature: 'S' },
      ],
    })
    const text = await (await post(`${server.baseUrl}/messages`, { model: 'claude', stream: true })).text()
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1])
    expect(events[0]).toBe('message_start')
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop'])
    expect(events.filter((e) => e === 'content_block_start')).toHaveLength(3)
    expect(text).toContain('"signature_delta","signature":"S"')
    expect(text).toContain('"stop_reason":"tool_use"')
  })

  test('unknown routes get 404; an exhausted script a non-retryable 400; a wrong key 401', async () => {
    server = await startLoopbackServer({ expectApiKey: 'right-key', script: [] })
    expect((await post(`${server.url}/v2/other`, {})).status).toBe(404)
    expect(
      (await post(`${server.baseUrl}/chat/completions`, {}, { authorization: 'Bearer wrong-key' })).status,
    ).toBe(401)
    const exhausted = await post(
      `${server.baseUrl}/chat/completions`,
      {},
      { authorization: 'Bearer right-key' },
    )
    expect(exhausted.status).toBe(400)
    expect(await exhausted.text()).toContain('exhausted')
    expect(server.requests.map((r) => r.authorized)).toEqual([false, false, true])
  })

  test('a respond entry answers from the logged request', async () => {
    server = await startLoopbackServer({
      script: [{ kind: 'respond', respond: (r) => ({ kind: 'text', text: `you sent ${r.bytes} bytes` }) }],
    })
    const { final } = await drain(await adapterFor(server).stream(request(MODEL_OF.deepseek), signal()))
    expect(final.content).toEqual([{ type: 'text', text: `you sent ${server.requests[0].bytes} bytes` }])
  })

  test('conversations: each key plays its own script from its start, interleaved requests do not mix, a keyless request plays the shared one', async () => {
    const keyOf = (r: { rawBody: string }) => /conversation-(\w+)/.exec(r.rawBody)?.[1]
    server = await startLoopbackServer({
      script: [{ kind: 'text', text: 'shared' }],
      conversations: {
        keyOf,
        scriptOf: (key) => [
          { kind: 'text', text: `${key} first` },
          { kind: 'text', text: `${key} second` },
        ],
      },
    })
    const say = async (marker: string) => {
      const body = { model: 'm', stream: true, messages: [{ role: 'user', content: marker }] }
      const text = await (await post(`${server!.baseUrl}/chat/completions`, body)).text()
      return [...text.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('')
    }
    expect(await say('conversation-a')).toBe('a first')
    expect(await say('conversation-b')).toBe('b first')
    expect(server.remaining).toBe(3)
    expect(await say('conversation-a')).toBe('a second')
    expect(await say('no key')).toBe('shared')
    expect(await say('conversation-b')).toBe('b second')
    server.assertConsumed()
    expect(server.requests.map((r) => [r.conversation, r.entry])).toEqual([
      ['a', 0],
      ['b', 0],
      ['a', 1],
      [undefined, 0],
      ['b', 1],
    ])
    const exhausted = await post(`${server.baseUrl}/chat/completions`, { messages: ['conversation-a'] })
    expect(exhausted.status).toBe(400)
    expect(await exhausted.text()).toContain('of conversation a exhausted')
  })

  test('a child-process server: --script, --port-file, --log, --expect-api-key-env; SIGTERM stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-loopback-'))
    const scriptFile = join(dir, 'script.json')
    writeFileSync(scriptFile, JSON.stringify({ entries: [{ kind: 'text', text: 'from the child' }] }))
    const portFile = join(dir, 'port')
    const log = join(dir, 'requests.jsonl')
    const entry = join(import.meta.dirname, '..', 'src', 'testing', 'loopback-server.ts')
    child = spawn(
      process.execPath,
      [
        entry,
        '--script',
        scriptFile,
        '--port-file',
        portFile,
        '--log',
        log,
        '--expect-api-key-env',
        'LOOPBACK_KEY',
      ],
      { env: { ...process.env, LOOPBACK_KEY: CANARY }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)))
    while (!existsSync(portFile)) {
      if (child.exitCode !== null) throw new Error('the loopback child exited early')
      await new Promise((r) => setTimeout(r, 20))
    }
    const port = Number(readFileSync(portFile, 'utf8'))
    const baseUrl = `http://127.0.0.1:${port}/v1`
    const { final } = await drain(
      await adapterFor({ baseUrl } as LoopbackServer).stream(request(MODEL_OF.anthropic), signal()),
    )
    expect(final.content).toEqual([{ type: 'text', text: 'from the child' }])
    const logged = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({
      path: '/v1/messages',
      authorized: true,
      headers: { 'x-api-key': '[redacted]' },
    })
    expect(readFileSync(log, 'utf8')).not.toContain(CANARY)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 30_000)
})
