// Who may use the web view (docs/decisions/0360-web-view.md): on a loopback address anyone on this
// machine, as with every other local tool; on any other address only a holder of the bearer token. On
// both, a request whose Host header is not the address the server is bound to is refused (a DNS-rebinding
// page on another site would otherwise reach a loopback server under its own name), and the two write
// actions (cancel, retry) are refused from another site (Origin / Sec-Fetch-Site) and need a header a
// plain form cannot send.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

/** The cookie a browser keeps the token in after opening the printed `?token=` address. */
export const TOKEN_COOKIE = 'tack_serve_token'
/** The header the page's own scripts send with cancel and retry (a cross-site form cannot). */
export const ACTION_HEADER = 'x-tack-action'

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '')
  if (bare === 'localhost') return true
  if (isIP(bare) === 4) return bare.startsWith('127.')
  return bare === '::1'
}

/** A fresh token: 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

/**
 * Whether `given` equals `expected`, in time that does not depend on where they differ: both are hashed
 * first, so even their lengths are compared in constant time.
 */
export function tokensMatch(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/** The token a request carries: `Authorization: Bearer …`, else the cookie, else `?token=`. */
export function tokenOf(req: IncomingMessage, url: URL): string | undefined {
  const auth = req.headers.authorization
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim()
  const cookie = cookieValue(req.headers.cookie, TOKEN_COOKIE)
  if (cookie !== undefined) return cookie
  return url.searchParams.get('token') ?? undefined
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return undefined
}

/**
 * The Host header values this server answers to: the bound address with its port, and for a loopback
 * bind the other loopback spellings (a browser opening http://localhost:PORT of a 127.0.0.1 server).
 * A DNS-rebinding page reaches the server under its own name, which is not among them.
 */
export function allowedHosts(host: string, port: number): ReadonlySet<string> | 'any' {
  // Bound to every address: the client may name any of them; the token (required there) is the guard.
  if (host === '0.0.0.0' || host === '::') return 'any'
  const names = isLoopback(host) ? ['127.0.0.1', 'localhost', '[::1]'] : [host]
  const bracketed = names.map((name) => (isIP(name) === 6 ? `[${name}]` : name))
  return new Set(bracketed.map((name) => `${name}:${port}`.toLowerCase()))
}

/** Why a write action (cancel, retry) is refused, or undefined when it comes from the page itself. */
export function crossSiteRefusal(req: IncomingMessage, ownOrigins: ReadonlySet<string>): string | undefined {
  const site = req.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'a request from another site'
  const origin = req.headers.origin
  if (origin !== undefined && !ownOrigins.has(origin.toLowerCase())) return 'a request from another origin'
  if (req.headers[ACTION_HEADER] !== '1') return `the ${ACTION_HEADER} header is missing`
  return undefined
}
