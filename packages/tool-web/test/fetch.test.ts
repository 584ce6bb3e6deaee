// web_fetch against real loopback servers: readable HTML, text types, the address policy on every
// hop (first URL, IP literals, DNS answers, redirects), and the byte, time, redirect and text caps.
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { WebFetchMeta } from '../src/web-fetch.ts'
import { call, html, redirect, serve, textOf, webContext } from './helpers.ts'

const ARTICLE = `<!doctype html><html><head><title>Widget guide</title><style>.x{}</style></head><body>
<nav><a href="/home">Home</a> <a href="/about">About</a></nav>
<article><h1>Installing widgets</h1>
<p>Widgets are installed with the <code>widget</code> command, which reads its settings from the project folder and
writes a lock file next to them. See <a href="/docs/lock">the lock file reference</a> for what it records.</p>
<p>Upgrading a widget keeps its settings; removing one deletes its lock entry but keeps the settings file, so a
later install picks up where it left off. This paragraph is long enough for an article.</p>
<script>document.write('SCRIPT-TEXT')</script>
</article><footer>Copyright footer</footer></body></html>`

const meta = (r: { meta?: unknown }) => r.meta as WebFetchMeta

describe('web_fetch: content', () => {
  it('an HTML page comes back as markdown of its article, with title and absolute links, without scripts', async () => {
    const server = await serve({ '/guide': html(ARTICLE) })
    const result = await call(await webContext(), 'web_fetch', { url: `${server.base}/guide` })
    const text = textOf(result)
    expect(result.isError).toBe(false)
    expect(text).toContain(`URL: ${server.base}/guide`)
    expect(text).toContain('Status: 200')
    expect(text).toContain('Title: Widget guide')
    expect(text).toMatch(/Widgets are installed with the `widget` command/)
    expect(text).toContain(`[the lock file reference](${server.base}/docs/lock)`)
    expect(text).not.toContain('SCRIPT-TEXT')
    expect(text).not.toContain('<p>')
    expect(meta(result)).toMatchObject({
      status: 200,
      bodyTruncated: false,
      textTruncated: false,
      redirects: [],
    })
  })

  it('format "text" returns plain text with paragraphs on their own lines', async () => {
    const server = await serve({ '/guide': html(ARTICLE) })
    const text = textOf(
      await call(await webContext(), 'web_fetch', { url: `${server.base}/guide`, format: 'text' }),
    )
    expect(text).toMatch(/Widgets are installed with the widget command/)
    expect(text).toMatch(/for what it records\.\n+Upgrading a widget/)
    expect(text).not.toContain('](')
    expect(text).not.toContain('SCRIPT-TEXT')
  })

  it('a page without an article is converted whole, less scripts and styles', async () => {
    const server = await serve({
      '/short': html('<html><body><p>Just <b>one</b> line.</p><script>var hidden = 1</script></body></html>'),
    })
    const text = textOf(await call(await webContext(), 'web_fetch', { url: `${server.base}/short` }))
    expect(text).toContain('Just **one** line.')
    expect(text).not.toContain('hidden')
  })

  it('JSON comes back as it is; a binary type is not shown; a charset is honoured', async () => {
    const server = await serve({
      '/data': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[1,2]}'),
      '/img': (_q, r) =>
        r.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0, 1])),
      '/latin': (_q, r) =>
        r
          .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
          .end(Buffer.from([0x63, 0x61, 0x66, 0xe9])),
    })
    const ctx = await webContext()
    expect(textOf(await call(ctx, 'web_fetch', { url: `${server.base}/data` }))).toMatch(
      /\n\n\{"a":\[1,2\]\}$/,
    )
    expect(textOf(await call(ctx, 'web_fetch', { url: `${server.base}/img` }))).toContain(
      '[binary content (image/png, 4 bytes read) is not shown]',
    )
    expect(textOf(await call(ctx, 'web_fetch', { url: `${server.base}/latin` }))).toMatch(/café$/)
  })

  it('an HTTP error status is an error result that still carries the page', async () => {
    const server = await serve({ '/gone': html('<html><body><p>It moved away.</p></body></html>', 410) })
    const result = await call(await webContext(), 'web_fetch', { url: `${server.base}/gone` })
    expect(result.isError).toBe(true)
    expect(result.error?.code).toBe('HTTP_ERROR')
    expect(textOf(result)).toContain('Status: 410')
    expect(textOf(result)).toContain('It moved away.')
  })

  it('web_fetch declares network access and the Claude Code name WebFetch', async () => {
    const def = (await webContext()).tools.get('web_fetch')
    expect(def?.access).toBe('network')
    expect(Object.fromEntries(Object.entries(def?.host ?? {}).map(([host, m]) => [host, m?.name]))).toEqual({
      claude: 'WebFetch',
    })
  })
})

describe('web_fetch: addresses', () => {
  it('loopback is refused by default, and the server never sees the request', async () => {
    const server = await serve({ '/admin': html('<p>secret admin</p>') })
    const ctx = await webContext({ allowLoopback: false })
    for (const url of [
      `${server.base}/admin`,
      `http://localhost:${server.port}/admin`,
      `http://[::ffff:127.0.0.1]:${server.port}/admin`,
      `http://2130706433:${server.port}/admin`,
      `http://0.0.0.0:${server.port}/admin`,
    ]) {
      const result = await call(ctx, 'web_fetch', { url })
      expect(result.isError, url).toBe(true)
      expect(result.error?.code, url).toBe('ADDRESS_REFUSED')
      expect(textOf(result), url).toMatch(/^\[not fetched: .*(loopback|reserved)/)
    }
    expect(server.hits).toEqual([])
  })

  it('a name whose DNS answer is loopback (rebinding) is refused at connect time; allowed, it connects to the checked address', async () => {
    const server = await serve({ '/admin': html('<html><body><p>admin page</p></body></html>') })
    const resolver = async () => [{ address: '127.0.0.1', family: 4 }]
    const refused = await call(await webContext({ allowLoopback: false }, { resolver }), 'web_fetch', {
      url: `http://docs.example.com:${server.port}/admin`,
    })
    expect(refused.error?.code).toBe('ADDRESS_REFUSED')
    expect(textOf(refused)).toContain(
      'docs.example.com resolves to a refused address: 127.0.0.1 is a loopback address (plugins.web.allowLoopback is off)',
    )
    expect(server.hits).toEqual([])
    const allowed = await call(await webContext({}, { resolver }), 'web_fetch', {
      url: `http://docs.example.com:${server.port}/admin`,
    })
    expect(textOf(allowed)).toContain('admin page')
    expect(server.headers[0].host).toBe(`docs.example.com:${server.port}`)
  })

  it('the same name is resolved and checked again at the next hop: a second answer on a private net is refused', async () => {
    const server = await serve({ '/start': (_q, r) => r.writeHead(302, { location: '/again' }).end() })
    let lookups = 0
    const resolver = async () => [{ address: ++lookups === 1 ? '127.0.0.1' : '10.0.0.5', family: 4 }]
    const result = await call(await webContext({}, { resolver }), 'web_fetch', {
      url: `http://rebind.example:${server.port}/start`,
    })
    expect(server.hits).toEqual(['/start'])
    expect(lookups).toBe(2)
    expect(result.error?.code).toBe('ADDRESS_REFUSED')
    expect(textOf(result)).toContain(
      'rebind.example resolves to a refused address: 10.0.0.5 is a private-network address',
    )
  })

  it('an answer mixing a public and a private address is refused as a whole', async () => {
    const resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]
    const result = await call(await webContext({}, { resolver }), 'web_fetch', {
      url: 'http://mixed.example/',
    })
    expect(result.error?.code).toBe('ADDRESS_REFUSED')
    expect(textOf(result)).toContain('10.0.0.7 is a private-network address')
  })

  it('a redirect to the metadata address, a private address or a private name is refused before connecting', async () => {
    const server = await serve({
      '/meta': redirect('http://169.254.169.254/latest/meta-data/'),
      '/lan': redirect('http://10.0.0.1/router'),
      '/name': redirect('http://intranet.example/'),
      '/file': redirect('file:///etc/passwd'),
    })
    const resolver = async (host: string) =>
      host === 'intranet.example'
        ? [{ address: '192.168.0.10', family: 4 }]
        : [{ address: '127.0.0.1', family: 4 }]
    const ctx = await webContext({}, { resolver })
    const cases: Array<[string, string, RegExp]> = [
      ['/meta', 'ADDRESS_REFUSED', /169\.254\.169\.254 is a link-local address/],
      ['/lan', 'ADDRESS_REFUSED', /10\.0\.0\.1 is a private-network address/],
      ['/name', 'ADDRESS_REFUSED', /intranet\.example resolves to a refused address: 192\.168\.0\.10/],
      ['/file', 'SCHEME_REFUSED', /only http and https/],
    ]
    for (const [path, code, why] of cases) {
      const result = await call(ctx, 'web_fetch', { url: `${server.base}${path}` })
      expect(result.error?.code, path).toBe(code)
      expect(textOf(result), path).toMatch(why)
    }
  })

  it('only http and https are fetched', async () => {
    const ctx = await webContext()
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'data:text/plain,hi', 'not a url']) {
      const result = await call(ctx, 'web_fetch', { url })
      expect(result.isError, url).toBe(true)
      expect(['SCHEME_REFUSED', 'BAD_URL'], url).toContain(result.error?.code)
    }
  })
})

describe('web_fetch: caps', () => {
  it('redirects are followed up to maxRedirects, listed in the result; one more fails TOO_MANY_REDIRECTS', async () => {
    const server = await serve({
      '/a': redirect('/b', 301),
      '/b': redirect('/c', 307),
      '/c': redirect('/end', 308),
      '/end': html('<html><body><p>arrived</p></body></html>'),
    })
    const ok = await call(await webContext({ maxRedirects: 3 }), 'web_fetch', { url: `${server.base}/a` })
    expect(textOf(ok)).toContain('arrived')
    expect(textOf(ok)).toContain(`Redirected from: ${server.base}/a -> ${server.base}/b -> ${server.base}/c`)
    expect(meta(ok).finalUrl).toBe(`${server.base}/end`)
    const tooMany = await call(await webContext({ maxRedirects: 2 }), 'web_fetch', {
      url: `${server.base}/a`,
    })
    expect(tooMany.error?.code).toBe('TOO_MANY_REDIRECTS')
    expect(textOf(tooMany)).toContain('more than 2 redirects (maxRedirects)')
  })

  it('the body is read up to maxBytes, after decompression, and the result says it was cut', async () => {
    const big = 'x'.repeat(300_000)
    const server = await serve({
      '/plain': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(big),
      '/gzip': (_q, r) =>
        r.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync(big)),
    })
    const ctx = await webContext({ maxBytes: 10_240 })
    for (const path of ['/plain', '/gzip']) {
      const result = await call(ctx, 'web_fetch', { url: `${server.base}${path}` })
      expect(meta(result), path).toMatchObject({ bytes: 10_240, bodyTruncated: true })
      expect(textOf(result), path).toContain('[the response was cut at 10240 bytes (maxBytes)]')
      expect(textOf(result).match(/x{100,}/)?.[0].length, path).toBe(10_240)
    }
  })

  it('a gzip body within the cap is decompressed whole', async () => {
    const server = await serve({
      '/gz': (_q, r) =>
        r
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
          .end(gzipSync('<html><body><p>compressed hello</p></body></html>')),
    })
    const result = await call(await webContext(), 'web_fetch', { url: `${server.base}/gz` })
    expect(textOf(result)).toContain('compressed hello')
    expect(meta(result).bodyTruncated).toBe(false)
  })

  it('a server that never answers fails TIMEOUT after timeoutMs', async () => {
    const server = await serve({ '/hang': () => {} })
    const started = performance.now()
    const result = await call(await webContext({ timeoutMs: 300 }), 'web_fetch', {
      url: `${server.base}/hang`,
    })
    const elapsed = performance.now() - started
    expect(result.error?.code).toBe('TIMEOUT')
    expect(textOf(result)).toContain('took longer than 300 ms (timeoutMs)')
    expect(elapsed).toBeGreaterThanOrEqual(250)
    expect(elapsed).toBeLessThan(5_000)
  })

  it('a body that stalls half-way also ends at timeoutMs', async () => {
    const server = await serve({
      '/stall': (_q, r) => {
        r.writeHead(200, { 'content-type': 'text/plain' })
        r.write('first part')
      },
    })
    const result = await call(await webContext({ timeoutMs: 300 }), 'web_fetch', {
      url: `${server.base}/stall`,
    })
    expect(result.error?.code).toBe('TIMEOUT')
  })

  it('converted text longer than maxResultChars is cut, and the result says so', async () => {
    const server = await serve({
      '/long': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(5_000)),
    })
    const result = await call(await webContext({ maxResultChars: 1_000 }), 'web_fetch', {
      url: `${server.base}/long`,
    })
    expect(textOf(result).match(/y{100,}/)?.[0].length).toBe(1_000)
    expect(textOf(result)).toContain('[the text was cut at 1000 characters (maxResultChars)]')
    expect(meta(result).textTruncated).toBe(true)
  })
})
