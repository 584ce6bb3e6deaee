// The web view's HTTP server with real requests over a real session in a real SQLite file: the read
// API, the Host check, the token on a non-loopback address, the event stream following appended
// events, and the guard on the two write actions (docs/decisions/0360-web-view.md).
import { request } from 'node:http'
import { text, toolCalls } from '@tack/agent/testing'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { tokensMatch } from '../src/access.ts'
import { type JobDetail, JobActionError, type JobSource } from '../src/jobs.ts'
import type { SessionPage } from '../src/session-feed.ts'
import { startWebServer, type WebServer } from '../src/server.ts'
import { EDIT_SCRIPT, HOSTILE, type Recorded, recordSession } from './support.ts'

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: string
}

/** One request to 127.0.0.1:`port`, with the headers given (Host included when given). */
function call(port: number, path: string, opts: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        let body = ''
        res.setEncoding('utf8').on('data', (d: string) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** Reads server-sent messages from `path` until `until` accepts one; answers the messages read. */
function stream(
  port: number,
  path: string,
  until: (message: SessionPage) => boolean,
): Promise<SessionPage[]> {
  return new Promise((resolve, reject) => {
    const seen: SessionPage[] = []
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      expect(res.headers['content-type']).toContain('text/event-stream')
      let buffer = ''
      res.setEncoding('utf8').on('data', (d: string) => {
        buffer += d
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = block.split('\n').find((line) => line.startsWith('data: '))
          if (!data) continue
          const message = JSON.parse(data.slice(6)) as SessionPage
          seen.push(message)
          if (until(message)) {
            req.destroy()
            resolve(seen)
          }
        }
      })
    })
    req.on('error', (error) => (seen.length ? undefined : reject(error)))
    req.end()
  })
}

/** Jobs kept in memory: the interface the jobs page reads, recording what was done to them. */
function memoryJobs(): JobSource & { readonly done: string[] } {
  const job: JobDetail = {
    id: 'job-1',
    state: 'active',
    task: `fix it ${HOSTILE}`,
    repo: '/srv/repo.git',
    createdAt: '2026-12-07T10:00:00.000Z',
    attempts: [{ attempt: 1, worker: 'w1' }],
  }
  const done: string[] = []
  return {
    done,
    listJobs: async () => [job],
    getJob: async (id) => (id === job.id ? job : undefined),
    cancel: async (id) => {
      if (done.includes(`cancel ${id}`)) throw new JobActionError(`job ${id} is already cancelled`)
      done.push(`cancel ${id}`)
    },
    retry: async (id) => void done.push(`retry ${id}`),
  }
}

let recorded: Recorded
beforeAll(async () => {
  recorded = await recordSession([...EDIT_SCRIPT, text('and again')], 'change two')
})
afterAll(() => recorded.close())

describe('on loopback', () => {
  let server: WebServer
  const jobs = memoryJobs()
  beforeAll(async () => {
    server = await startWebServer({
      store: recorded.store,
      projection: recorded.projection,
      jobs,
      host: '127.0.0.1',
      port: 0,
      pollMs: 50,
    })
  })
  afterAll(() => server.close())

  test('lists the sessions and answers one as the TUI projects it: the edit card carries its applied hunk', async () => {
    const list = await call(server.port, '/api/sessions')
    expect(list.status).toBe(200)
    expect(JSON.parse(list.body)).toMatchObject([{ id: recorded.sessionId, turns: 1 }])
    const page = JSON.parse(
      (await call(server.port, `/api/sessions/${recorded.sessionId}`)).body,
    ) as SessionPage
    const tools = page.entries.filter((e) => e.kind === 'tool')
    expect(tools.map((t) => [t.name, t.status])).toEqual([
      ['read', 'done'],
      ['edit', 'done'],
      ['bash', 'failed'],
    ])
    expect(tools[1]?.diff).toEqual({
      path: 'a.txt',
      hunks: [
        { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-two', '+TWO', ' three'] },
      ],
    })
    // Log text travels as data, as written: the page puts it on screen as text (browser.test.ts).
    expect(tools[2]?.output).toContain(HOSTILE)
    expect(page.status).toMatchObject({ inputTokens: 4900, outputTokens: 100, cost: 0.005 })
  })

  test('the page is served with a policy that runs no script but its own, and an unknown session is 404', async () => {
    const page = await call(server.port, '/')
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.body).not.toMatch(/<script>/)
    expect((await call(server.port, '/static/app.js')).body).not.toContain('innerHTML =')
    const missing = await call(server.port, '/api/sessions/no-such-session')
    expect(missing.status).toBe(404)
    expect((await call(server.port, '/api/sessions/%E0%A4%A')).status).toBe(400)
  })

  test('a Host header other than the bound address is refused (DNS rebinding); localhost is the same machine', async () => {
    const rebound = await call(server.port, '/api/sessions', {
      headers: { host: `evil.example:${server.port}` },
    })
    expect(rebound.status).toBe(421)
    expect(rebound.body).not.toContain(recorded.sessionId)
    const local = await call(server.port, '/api/sessions', { headers: { host: `localhost:${server.port}` } })
    expect(local.status).toBe(200)
  })

  test("a session's stream sends the page, then again when an appended turn changes it", async () => {
    const path = `/api/sessions/${recorded.sessionId}/stream`
    const done = stream(server.port, path, (page) =>
      page.entries.some((e) => e.kind === 'assistant' && e.text === 'and again'),
    )
    await new Promise((r) => setTimeout(r, 200))
    await recorded.send('once more')
    const pages = await done
    expect(pages.length).toBeGreaterThanOrEqual(2)
    expect(pages[0]?.entries.some((e) => e.kind === 'user' && e.text === 'once more')).toBe(false)
    expect(
      pages
        .at(-1)
        ?.entries.filter((e) => e.kind === 'user')
        .map((e) => e.kind === 'user' && e.text),
    ).toEqual(['change two', 'once more'])
  })

  test('cancel and retry: refused without the action header, from another origin or another site', async () => {
    const origin = `http://127.0.0.1:${server.port}`
    const post = (headers: Record<string, string>) =>
      call(server.port, '/api/jobs/job-1/cancel', { method: 'POST', headers })
    expect((await post({ origin })).status).toBe(403)
    expect((await post({ 'x-tack-action': '1', origin: 'http://evil.example' })).status).toBe(403)
    expect((await post({ 'x-tack-action': '1', 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect(jobs.done).toEqual([])
    const ok = await post({ 'x-tack-action': '1', origin, 'sec-fetch-site': 'same-origin' })
    expect(ok.status).toBe(200)
    const retry = await call(server.port, '/api/jobs/job-1/retry', {
      method: 'POST',
      headers: { 'x-tack-action': '1' },
    })
    expect(retry.status).toBe(200)
    expect(jobs.done).toEqual(['cancel job-1', 'retry job-1'])
    const again = await post({ 'x-tack-action': '1', origin })
    expect(again.status).toBe(409)
    expect(JSON.parse(again.body)).toEqual({ error: 'job job-1 is already cancelled' })
    expect(
      (
        await call(server.port, '/api/jobs/nope/cancel', {
          method: 'POST',
          headers: { 'x-tack-action': '1' },
        })
      ).status,
    ).toBe(404)
  })
})

describe('on another address', () => {
  const token = 'correct-horse-battery-staple'
  let server: WebServer
  beforeAll(async () => {
    server = await startWebServer({
      store: recorded.store,
      projection: recorded.projection,
      host: '0.0.0.0',
      port: 0,
      pollMs: 50,
      token,
    })
  })
  afterAll(() => server.close())

  test('refuses to start without a token', async () => {
    await expect(
      startWebServer({
        store: recorded.store,
        projection: recorded.projection,
        host: '0.0.0.0',
        port: 0,
        pollMs: 50,
      }),
    ).rejects.toThrow(/needs a token/)
  })

  test('every request needs the token: none or a wrong one is 401, the bearer header is let in', async () => {
    expect((await call(server.port, '/api/sessions')).status).toBe(401)
    expect((await call(server.port, '/')).status).toBe(401)
    const wrong = await call(server.port, '/api/sessions', { headers: { authorization: `Bearer ${token}x` } })
    expect(wrong.status).toBe(401)
    const right = await call(server.port, '/api/sessions', { headers: { authorization: `Bearer ${token}` } })
    expect(right.status).toBe(200)
    expect(right.body).toContain(recorded.sessionId)
  })

  test('the printed address sets the token as a strict, script-proof cookie and drops it from the URL', async () => {
    const opened = await call(server.port, `/?token=${token}`)
    expect(opened.status).toBe(303)
    expect(opened.headers.location).toBe('/')
    const cookie = String(opened.headers['set-cookie'])
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    const pair = cookie.split(';')[0] ?? ''
    expect((await call(server.port, '/api/sessions', { headers: { cookie: pair } })).status).toBe(200)
    expect((await call(server.port, `/?token=nope`)).status).toBe(401)
  })

  test('tokens are compared whole, whatever their lengths', () => {
    expect(tokensMatch(token, token)).toBe(true)
    expect(tokensMatch(`${token}x`, token)).toBe(false)
    expect(tokensMatch('', token)).toBe(false)
    expect(tokensMatch(undefined, token)).toBe(false)
  })
})

test('a script of calls the view has no tool for still shows as plain cards', async () => {
  const other = await recordSession(
    [toolCalls([{ name: 'nonexistent_tool', args: { x: 1 } }]), text('ok')],
    'try',
  )
  const server = await startWebServer({
    store: other.store,
    projection: other.projection,
    host: '127.0.0.1',
    port: 0,
    pollMs: 50,
  })
  try {
    const page = JSON.parse((await call(server.port, `/api/sessions/${other.sessionId}`)).body) as SessionPage
    expect(page.entries.find((e) => e.kind === 'tool')).toMatchObject({
      name: 'nonexistent_tool',
      status: 'failed',
    })
  } finally {
    await server.close()
    await other.close()
  }
})

describe('redaction', () => {
  test("every answer and stream message goes through the server's redactor (the page is output too)", async () => {
    // tack serve passes its secret redactor; a stand-in that hides the answer's own words shows the path
    const redact = (text: string) =>
      text.replaceAll('Changed it', '[redacted]').replaceAll('change two', '[redacted]')
    const options = { store: recorded.store, projection: recorded.projection, host: '127.0.0.1', pollMs: 50 }
    const server = await startWebServer({ ...options, port: 0, redact })
    try {
      const page = (await call(server.port, `/api/sessions/${recorded.sessionId}`)).body
      expect(page).toContain('[redacted]')
      expect(page).not.toContain('Changed it')
      const list = (await call(server.port, '/api/sessions')).body // the first prompt is in the list
      expect(list).toContain('[redacted]')
      expect(list).not.toContain('change two')
      const streamed = await stream(server.port, `/api/sessions/${recorded.sessionId}/stream`, () => true)
      expect(JSON.stringify(streamed)).toContain('[redacted]')
      expect(JSON.stringify(streamed)).not.toContain('Changed it')
      // without a redactor the same page holds the words: the checks above are not vacuous
      const plain = await startWebServer({ ...options, port: 0 })
      try {
        expect((await call(plain.port, `/api/sessions/${recorded.sessionId}`)).body).toContain('Changed it')
      } finally {
        await plain.close()
      }
    } finally {
      await server.close()
    }
  })
})
