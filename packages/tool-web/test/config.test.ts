// Every Config field: its default, a configured value taking effect (here or in fetch/search tests),
// and a rejected value naming the field.
import { ConfigError, Context } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import { WebToolsConfig } from '../src/config.ts'
import { WebToolsPlugin } from '../src/plugin.ts'
import { call, html, serve, textOf, webContext } from './helpers.ts'

describe('WebToolsConfig', () => {
  it('the defaults: 30 s, 5 MiB, 100,000 characters, 5 redirects, no loopback/private/link-local, Brave with BRAVE_API_KEY, 10 results', () => {
    expect(WebToolsConfig.parse({})).toEqual({
      timeoutMs: 30_000,
      maxBytes: 5 * 1024 * 1024,
      maxResultChars: 100_000,
      maxRedirects: 5,
      allowLoopback: false,
      allowPrivateNetworks: false,
      allowLinkLocal: false,
      userAgent: 'Mozilla/5.0 (compatible; tack-web-fetch/0.1)',
      searchProvider: 'brave',
      searchApiKeyEnv: 'BRAVE_API_KEY',
      searchBaseUrl: 'https://api.search.brave.com/res/v1/web/search',
      searchMaxResults: 10,
    })
  })

  it.each([
    [{ timeoutMs: 50 }, /timeoutMs: must be an integer 100–600000/],
    [{ maxBytes: 10 }, /maxBytes: must be an integer 1024–67108864/],
    [{ maxResultChars: 1.5 }, /maxResultChars: must be an integer 1000–10000000/],
    [{ maxRedirects: 21 }, /maxRedirects: must be an integer 0–20/],
    [{ allowLoopback: 'yes' }, /allowLoopback: must be true or false/],
    [{ allowPrivateNetworks: 1 }, /allowPrivateNetworks: must be true or false/],
    [{ allowLinkLocal: null }, /allowLinkLocal: must be true or false/],
    [{ userAgent: '' }, /userAgent: must be a non-empty string/],
    [{ searchProvider: 'google' }, /searchProvider: must be one of 'brave', 'plugin', 'off'/],
    [{ searchApiKeyEnv: '' }, /searchApiKeyEnv: must be a non-empty string/],
    [{ searchBaseUrl: 'ftp://x/' }, /searchBaseUrl: must be an http or https URL/],
    [{ searchMaxResults: 0 }, /searchMaxResults: must be an integer 1–20/],
    [{ env: { A: 1 } }, /env: must be an object of string values/],
    [{ nope: 1 }, /nope/],
  ] as Array<[Record<string, unknown>, RegExp]>)(
    'rejects %j, naming the key and the allowed range',
    async (config, message) => {
      expect(() => WebToolsConfig.parse(config, 'config.yml')).toThrow(ConfigError)
      expect(() => WebToolsConfig.parse(config, 'config.yml')).toThrow(message)
      // cordis validates with the same schema: a bad value fails the load
      await expect(new Context().plugin(WebToolsPlugin, config as never)).rejects.toThrow(message)
    },
  )

  it('userAgent is the User-Agent of a fetch', async () => {
    const server = await serve({ '/p': html('<p>x</p>') })
    await call(await webContext({ userAgent: 'probe/1' }), 'web_fetch', { url: `${server.base}/p` })
    expect(server.headers[0]['user-agent']).toBe('probe/1')
  })

  it('allowPrivateNetworks and allowLinkLocal let such addresses past the check (the connection is then attempted)', async () => {
    const resolver = async (host: string) => [
      { address: host === 'lan.example' ? '10.255.255.1' : '169.254.169.254', family: 4 },
    ]
    const refused = await webContext({ timeoutMs: 300 }, { resolver })
    for (const host of ['lan.example', 'meta.example']) {
      expect((await call(refused, 'web_fetch', { url: `http://${host}/` })).error?.code).toBe(
        'ADDRESS_REFUSED',
      )
    }
    const allowed = await webContext(
      { timeoutMs: 300, allowPrivateNetworks: true, allowLinkLocal: true },
      { resolver },
    )
    for (const host of ['lan.example', 'meta.example']) {
      const result = await call(allowed, 'web_fetch', { url: `http://${host}/` })
      // Whatever the network then does (no route, a timeout, some answer), the address was not refused.
      expect(result.error?.code, textOf(result)).not.toBe('ADDRESS_REFUSED')
      expect(textOf(result)).not.toMatch(/address \(allow/)
    }
  })
})

describe('ctx.secrets', () => {
  it('the search key variable is declared secret whatever its name and provider', async () => {
    const ctx = await webContext({ searchApiKeyEnv: 'MY_SEARCH', searchProvider: 'off' })
    expect(ctx.secrets.variables()).toEqual(['MY_SEARCH'])
  })
})
