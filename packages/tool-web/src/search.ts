// The search-provider seam. `web_search` fires `web/search`; a plugin that wants to answer with its
// own engine listens and returns without calling `next()`. Under every listener, the provider this
// package's config chose (brave.ts) answers. Declared here, the package that fires it (0010).
import { type Waterfall, waterfall } from '@tack/kernel'
import type { Context } from 'cordis'

export interface SearchRequest {
  readonly query: string
  /** At most this many results are wanted (1 to the plugin's `searchMaxResults`). */
  readonly maxResults: number
}

export interface SearchResult {
  readonly title: string
  readonly url: string
  readonly snippet?: string
}

export interface SearchResponse {
  /** Who answered, shown with the results (e.g. `brave`). */
  readonly provider: string
  readonly results: readonly SearchResult[]
}

/** A search engine behind the seam's default. */
export interface SearchProvider {
  readonly name: string
  search(request: SearchRequest, signal: AbortSignal): Promise<SearchResponse>
}

export class SearchError extends Error {
  override readonly name = 'SearchError'
  readonly code: 'NO_SEARCH_PROVIDER' | 'SEARCH_FAILED'
  constructor(code: SearchError['code'], message: string) {
    super(message)
    this.code = code
  }
}

declare module 'cordis' {
  interface Events {
    /**
     * @mode waterfall — one `web_search` call. Result: the first listener that returns without `next()`
     * answers; default the provider chosen by `plugins.web.searchProvider`. The tool keeps at most
     * `maxResults` of what comes back.
     */
    'web/search': Waterfall<[request: SearchRequest, signal: AbortSignal], SearchResponse>
  }
}

/** Runs the seam with `provider` (or a clear failure when there is none) as its default. */
export function searchWeb(
  ctx: Context,
  request: SearchRequest,
  signal: AbortSignal,
  provider: SearchProvider | undefined,
): Promise<SearchResponse> {
  return waterfall(ctx, 'web/search', [request, signal], (req, sig) => {
    if (!provider)
      throw new SearchError(
        'NO_SEARCH_PROVIDER',
        'no search provider answered: configure plugins.web.searchProvider (and its API key variable) or load a plugin that answers web/search',
      )
    return provider.search(req, sig)
  })
}
