// @tack/tool-web: `web_fetch` (bounded, address-guarded HTTP GET with readable HTML) and `web_search`
// behind the `web/search` seam, with a Brave Search adapter.
export { type AddressKind, type AddressPolicy, addressKind, refusalOf } from './addresses.ts'
export { BRAVE_MAX_COUNT, type BraveOptions, createBraveProvider } from './brave.ts'
export { WebToolsConfig } from './config.ts'
export { FetchRefused, type Resolver, systemResolver } from './guarded-http.ts'
export { configuredProvider, createWebToolsPlugin, offersSearch, WebToolsPlugin } from './plugin.ts'
// readable.ts is not re-exported as a value: it loads the HTML libraries, which wait for the first page.
export type { ReadableFormat, ReadablePage } from './readable.ts'
export {
  SearchError,
  type SearchProvider,
  type SearchRequest,
  type SearchResponse,
  type SearchResult,
  searchWeb,
} from './search.ts'
export { createWebFetchTool, type WebFetchMeta, type WebToolOptions } from './web-fetch.ts'
export { createWebSearchTool } from './web-search.ts'
