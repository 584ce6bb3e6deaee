// One bounded HTTP GET per hop, and the redirect loop over it. Every connection resolves its host
// through `guardedLookup`, which refuses the whole answer when any address is of a refused kind, and
// the socket connects to the address that was checked — so the check cannot be raced by a second DNS
// answer (rebinding). Hosts written as IP literals skip DNS, so they are checked before the request.
// Bodies are read up to a byte cap after decompression (a small gzip cannot expand past the cap), and
// one signal bounds the whole fetch, redirects included.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { type IncomingMessage, request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { type AddressPolicy, refusalOf } from './addresses.ts'

/** `dns.lookup` with `all: true`: what tests replace to play a rebinding resolver. */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  )

export class FetchRefused extends Error {
  override readonly name = 'FetchRefused'
  readonly code: 'ADDRESS_REFUSED' | 'SCHEME_REFUSED' | 'TOO_MANY_REDIRECTS' | 'BAD_URL'
  constructor(code: FetchRefused['code'], message: string) {
    super(message)
    this.code = code
  }
}

export interface HopOptions {
  readonly policy: AddressPolicy
  readonly resolver: Resolver
  readonly maxBytes: number
  readonly signal: AbortSignal
  readonly headers: Readonly<Record<string, string>>
}

export interface HopResponse {
  readonly url: URL
  readonly status: number
  readonly headers: IncomingMessage['headers']
  readonly body: Buffer
  /** The body was longer than `maxBytes` and was cut there. */
  readonly truncated: boolean
}

export function parseWebUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new FetchRefused('BAD_URL', `not an absolute URL: ${JSON.stringify(text)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchRefused('SCHEME_REFUSED', `only http and https URLs are fetched (got ${url.protocol})`)
  return url
}

function guardedLookup(policy: AddressPolicy, resolver: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4)
          return
        }
        for (const a of addresses) {
          const why = refusalOf(a.address, policy)
          if (why) {
            callback(
              new FetchRefused('ADDRESS_REFUSED', `${hostname} resolves to a refused address: ${why}`),
              '',
              4,
            )
            return
          }
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses
        const list = usable.length > 0 ? usable : addresses
        if (options.all) callback(null, [...list])
        else callback(null, list[0].address, list[0].family)
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    )
  }
}

/** One GET without following redirects. */
export function getOnce(url: URL, options: HopOptions): Promise<HopResponse> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host)) {
    const why = refusalOf(host, options.policy)
    if (why) return Promise.reject(new FetchRefused('ADDRESS_REFUSED', `${url.host}: ${why}`))
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { 'accept-encoding': 'gzip, deflate, br', ...options.headers },
        lookup: guardedLookup(options.policy, options.resolver),
        signal: options.signal,
        // No connection reuse: a pooled socket would skip the look-up of the next hop.
        agent: false,
      },
      (res) => {
        readCapped(decoded(res), options.maxBytes).then(({ body, truncated }) => {
          if (truncated) res.destroy()
          resolve({ url, status: res.statusCode ?? 0, headers: res.headers, body, truncated })
        }, reject)
      },
    )
    req.on('error', reject)
    req.end()
  })
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined
  if (!decoder) return res
  res.on('error', (error) => decoder.destroy(error))
  return res.pipe(decoder)
}

async function readCapped(stream: Readable, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buf = chunk as Buffer
    if (size + buf.length > maxBytes) {
      chunks.push(buf.subarray(0, maxBytes - size))
      stream.destroy()
      return { body: Buffer.concat(chunks), truncated: true }
    }
    chunks.push(buf)
    size += buf.length
  }
  return { body: Buffer.concat(chunks), truncated: false }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

export interface FetchResult extends HopResponse {
  /** Every URL redirected from, in order. */
  readonly redirects: readonly string[]
}

/** GET `start`, following up to `maxRedirects` redirects; each hop is parsed and guarded afresh. */
export async function fetchFollowing(
  start: URL,
  options: HopOptions & { readonly maxRedirects: number },
): Promise<FetchResult> {
  const redirects: string[] = []
  let url = start
  for (;;) {
    const response = await getOnce(url, options)
    const location = response.headers.location
    if (!REDIRECTS.has(response.status) || typeof location !== 'string') return { ...response, redirects }
    if (redirects.length >= options.maxRedirects)
      throw new FetchRefused(
        'TOO_MANY_REDIRECTS',
        `more than ${options.maxRedirects} redirects (maxRedirects); last hop ${url.href} -> ${location}`,
      )
    redirects.push(url.href)
    let next: string
    try {
      next = new URL(location, url).href
    } catch {
      throw new FetchRefused(
        'BAD_URL',
        `${url.href} redirects to an invalid URL: ${JSON.stringify(location)}`,
      )
    }
    url = parseWebUrl(next)
  }
}
