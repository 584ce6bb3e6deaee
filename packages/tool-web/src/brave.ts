// The Brave Search API adapter (https://api.search.brave.com/app/documentation/web-search): one GET
// of `<baseUrl>?q=…&count=…` with the key in `X-Subscription-Token`, JSON back, `web.results[]` of
// `{title, url, description}`. The endpoint comes from the user's config, never from the model, so it
// is not held to web_fetch's address policy (a test or a proxy on loopback works), but it is bounded
// the same way (bytes, time, no redirects). The key never appears in results or errors.
import { ALLOW_ALL } from './addresses.ts'
import { fetchFollowing, type Resolver, systemResolver } from './guarded-http.ts'
import { SearchError, type SearchProvider, type SearchResult } from './search.ts'

export const BRAVE_MAX_COUNT = 20

export interface BraveOptions {
  readonly apiKey: string
  readonly baseUrl: string
  readonly timeoutMs: number
  readonly maxBytes: number
  readonly userAgent: string
  readonly resolver?: Resolver
}

interface BraveBody {
  readonly web?: { readonly results?: ReadonlyArray<Record<string, unknown>> }
}

/** Brave's descriptions are HTML (matches in <strong>, entities); the model wants the words. */
function plain(parseHTML: typeof import('linkedom').parseHTML, text: string): string {
  return (
    parseHTML(`<!doctype html><html><body>${text}</body></html>`).document.body.textContent ?? ''
  ).trim()
}

export function createBraveProvider(options: BraveOptions): SearchProvider {
  return {
    name: 'brave',
    async search(request, signal) {
      const url = new URL(options.baseUrl)
      url.searchParams.set('q', request.query)
      url.searchParams.set('count', String(Math.min(request.maxResults, BRAVE_MAX_COUNT)))
      const response = await fetchFollowing(url, {
        policy: ALLOW_ALL,
        resolver: options.resolver ?? systemResolver,
        maxBytes: options.maxBytes,
        maxRedirects: 0,
        signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
        headers: {
          accept: 'application/json',
          'user-agent': options.userAgent,
          'x-subscription-token': options.apiKey,
        },
      })
      if (response.status < 200 || response.status > 299)
        throw new SearchError(
          'SEARCH_FAILED',
          `Brave Search answered HTTP ${response.status}${response.status === 401 || response.status === 403 ? ' (is the API key right?)' : ''}`,
        )
      let body: BraveBody
      try {
        body = JSON.parse(response.body.toString('utf8')) as BraveBody
      } catch {
        throw new SearchError('SEARCH_FAILED', 'Brave Search answered with something that is not JSON')
      }
      // Loaded on the first search, not at start-up.
      const { parseHTML } = await import('linkedom')
      const results: SearchResult[] = []
      for (const item of body.web?.results ?? []) {
        if (typeof item.url !== 'string' || typeof item.title !== 'string') continue
        const snippet = typeof item.description === 'string' ? plain(parseHTML, item.description) : undefined
        results.push({ title: plain(parseHTML, item.title), url: item.url, ...(snippet ? { snippet } : {}) })
      }
      return { provider: 'brave', results }
    },
  }
}
