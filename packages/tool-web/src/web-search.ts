// `web_search`: a query through the `web/search` seam (search.ts), results as a numbered list of
// title, URL and snippet, at most `searchMaxResults`.
import { defineTool, ToolFailure } from '@tack/tools'
import type { Context } from 'cordis'
import type { WebToolsConfig } from './config.ts'
import { webToolHeader } from './tool-header.ts'
import { webSearchHost } from './web-search-host.ts'
import { SearchError, type SearchProvider, searchWeb } from './search.ts'
import { webSearchPresentation } from './web-search-present.ts'

const DESCRIPTION = [
  'Searches the web and returns the top results as a numbered list of title, URL and snippet.',
  'Use it to find current information or documentation, then read a result with web_fetch.',
].join(' ')

export function createWebSearchTool(
  ctx: Context,
  config: WebToolsConfig,
  provider: SearchProvider | undefined,
) {
  return defineTool({
    ...webToolHeader(config, 'web_search', DESCRIPTION),
    host: webSearchHost,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'What to search for.' },
        max_results: {
          type: 'integer',
          minimum: 1,
          maximum: config.searchMaxResults,
          description: `How many results to return (default and at most ${config.searchMaxResults}).`,
        },
      },
      required: ['query'],
    },
    async execute(args, call) {
      const maxResults = Math.min(args.max_results ?? config.searchMaxResults, config.searchMaxResults)
      let response: Awaited<ReturnType<typeof searchWeb>>
      try {
        response = await searchWeb(ctx, { query: args.query, maxResults }, call.signal, provider)
      } catch (error) {
        if (call.signal.aborted) throw error
        const message = (error as Error).message
        const code = error instanceof SearchError ? error.code : 'SEARCH_FAILED'
        throw new ToolFailure(code, message, { content: `[search failed: ${message}]` })
      }
      const results = response.results.slice(0, maxResults)
      if (results.length === 0)
        return {
          content: `No results for ${JSON.stringify(args.query)}.`,
          meta: { provider: response.provider, count: 0 },
        }
      const lines = results.map((r, i) => {
        const entry = [`${i + 1}. ${r.title}`, `   ${r.url}`]
        if (r.snippet) entry.push(`   ${r.snippet}`)
        return entry.join('\n')
      })
      return {
        content: `Results for ${JSON.stringify(args.query)} (${response.provider}):\n\n${lines.join('\n\n')}`,
        meta: { provider: response.provider, count: results.length },
      }
    },
    present: webSearchPresentation,
  })
}
