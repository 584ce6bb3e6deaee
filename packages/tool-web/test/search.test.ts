// web_search through the `web/search` seam: the Brave adapter against a loopback server speaking
// Brave's JSON, searchMaxResults, when the tool is offered, and a plugin answering the seam.
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { call, serve, textOf, webContext } from './helpers.ts'

const KEY = 'brave-test-key-123'

function braveResults(n: number) {
  return {
    type: 'search',
    web: {
      results: Array.from({ length: n }, (_, i) => ({
        title: `Result <strong>${i + 1}</strong>`,
        url: `https://example.com/${i + 1}`,
        description: `About <strong>widgets</strong> &amp; gadgets, part ${i + 1}`,
      })),
    },
  }
}

async function braveServer(n = 15, status = 200) {
  return serve({
    '/res/v1/web/search': (_q, r) =>
      r.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(braveResults(n))),
  })
}

describe('web_search with Brave', () => {
  it('sends the query, the count and the key header, and lists title, URL and plain snippet', async () => {
    const server = await braveServer(3)
    const ctx = await webContext({
      env: { BRAVE_API_KEY: KEY },
      searchBaseUrl: `${server.base}/res/v1/web/search`,
      allowLoopback: false, // the provider's endpoint is the user's, not held to web_fetch's policy
    })
    const result = await call(ctx, 'web_search', { query: 'install widgets' })
    expect(result.isError).toBe(false)
    const url = new URL(server.hits[0], server.base)
    expect(url.searchParams.get('q')).toBe('install widgets')
    expect(url.searchParams.get('count')).toBe('10')
    expect(server.headers[0]['x-subscription-token']).toBe(KEY)
    expect(server.headers[0].accept).toBe('application/json')
    expect(textOf(result)).toBe(
      [
        'Results for "install widgets" (brave):',
        '',
        '1. Result 1\n   https://example.com/1\n   About widgets & gadgets, part 1',
        '',
        '2. Result 2\n   https://example.com/2\n   About widgets & gadgets, part 2',
        '',
        '3. Result 3\n   https://example.com/3\n   About widgets & gadgets, part 3',
      ].join('\n'),
    )
    expect(result.meta).toEqual({ provider: 'brave', count: 3 })
  })

  it('searchMaxResults caps what is asked for and what is returned; max_results asks for fewer', async () => {
    const server = await braveServer(15)
    const ctx = await webContext({
      env: { BRAVE_API_KEY: KEY },
      searchBaseUrl: `${server.base}/res/v1/web/search`,
      searchMaxResults: 5,
    })
    const all = await call(ctx, 'web_search', { query: 'q' })
    expect(new URL(server.hits[0], server.base).searchParams.get('count')).toBe('5')
    expect(all.meta).toEqual({ provider: 'brave', count: 5 })
    expect(textOf(all)).toContain('5. Result 5')
    expect(textOf(all)).not.toContain('6. Result 6')
    const two = await call(ctx, 'web_search', { query: 'q', max_results: 2 })
    expect(two.meta).toEqual({ provider: 'brave', count: 2 })
    const tooMany = await call(ctx, 'web_search', { query: 'q', max_results: 6 })
    expect(tooMany.error?.code).toBe('INVALID_ARGS')
    const schema = ctx.tools.schemas().find((s) => s.name === 'web_search')
    expect(JSON.stringify(schema)).toContain('default and at most 5')
  })

  it('a rejected key is a clear failure that does not show the key', async () => {
    const server = await braveServer(1, 401)
    const ctx = await webContext({
      env: { BRAVE_API_KEY: KEY },
      searchBaseUrl: `${server.base}/res/v1/web/search`,
    })
    const result = await call(ctx, 'web_search', { query: 'q' })
    expect(result.error?.code).toBe('SEARCH_FAILED')
    expect(textOf(result)).toBe('[search failed: Brave Search answered HTTP 401 (is the API key right?)]')
    expect(JSON.stringify(result)).not.toContain(KEY)
  })

  it('the key is read from the variable searchApiKeyEnv names', async () => {
    const server = await braveServer(1)
    const ctx = await webContext({
      env: { MY_SEARCH: KEY },
      searchApiKeyEnv: 'MY_SEARCH',
      searchBaseUrl: `${server.base}/res/v1/web/search`,
    })
    expect(textOf(await call(ctx, 'web_search', { query: 'q' }))).toContain('1. Result 1')
    expect(server.headers[0]['x-subscription-token']).toBe(KEY)
  })

  it('web_search declares network access and the Claude Code name WebSearch', async () => {
    const def = (await webContext({ env: { BRAVE_API_KEY: KEY } })).tools.get('web_search')
    expect(def?.access).toBe('network')
    expect(Object.fromEntries(Object.entries(def?.host ?? {}).map(([host, m]) => [host, m?.name]))).toEqual({
      claude: 'WebSearch',
    })
  })
})

describe('web_search: when it is offered, and the seam', () => {
  it('without a key, or with searchProvider off, there is no web_search tool (web_fetch stays)', async () => {
    const noKey = await webContext({ env: {} })
    expect(noKey.tools.get('web_search')).toBeUndefined()
    expect(noKey.tools.get('web_fetch')).toBeDefined()
    expect(
      (await webContext({ env: { BRAVE_API_KEY: KEY }, searchProvider: 'off' })).tools.get('web_search'),
    ).toBeUndefined()
  })

  const answering = (ctx: Context, seen: unknown[]) =>
    ctx.plugin({
      name: 'my-search',
      apply: (inner: Context) => {
        inner.on('web/search', (request, _signal, _next) => {
          seen.push(request)
          return {
            provider: 'mine',
            results: [
              { title: 'Mine', url: 'https://mine.example/' },
              { title: 'Mine too', url: 'https://mine.example/2', snippet: 's' },
              { title: 'Extra', url: 'https://mine.example/3' },
            ],
          }
        })
      },
    })

  it('searchProvider plugin: a plugin on web/search answers, the tool keeps at most maxResults', async () => {
    const ctx = await webContext({ searchProvider: 'plugin', searchMaxResults: 2 })
    const seen: unknown[] = []
    await answering(ctx, seen)
    const result = await call(ctx, 'web_search', { query: 'who' })
    expect(seen).toEqual([{ query: 'who', maxResults: 2 }])
    expect(textOf(result)).toBe(
      'Results for "who" (mine):\n\n1. Mine\n   https://mine.example/\n\n2. Mine too\n   https://mine.example/2\n   s',
    )
  })

  it('a plugin on web/search answers before the Brave provider, which is not asked', async () => {
    const server = await braveServer(2)
    const ctx = await webContext({
      env: { BRAVE_API_KEY: KEY },
      searchBaseUrl: `${server.base}/res/v1/web/search`,
    })
    await answering(ctx, [])
    expect(textOf(await call(ctx, 'web_search', { query: 'q' }))).toContain('(mine)')
    expect(server.hits).toEqual([])
  })

  it('searchProvider plugin with no listener fails NO_SEARCH_PROVIDER naming the fix', async () => {
    const result = await call(await webContext({ searchProvider: 'plugin' }), 'web_search', { query: 'q' })
    expect(result.error?.code).toBe('NO_SEARCH_PROVIDER')
    expect(textOf(result)).toMatch(/configure plugins\.web\.searchProvider/)
  })

  it('no results is a plain answer, not an error', async () => {
    const server = await braveServer(0)
    const ctx = await webContext({
      env: { BRAVE_API_KEY: KEY },
      searchBaseUrl: `${server.base}/res/v1/web/search`,
    })
    const result = await call(ctx, 'web_search', { query: 'nothing' })
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe('No results for "nothing".')
  })
})
