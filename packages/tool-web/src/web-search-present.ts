// How `web_search` looks (presentation.ts in @tack/tools): a fetch, shown by its query.
import type { ToolPresentation } from '@tack/tools'

export const webSearchPresentation: ToolPresentation<{ readonly query: string }, 'query'> = {
  kind: 'fetch',
  key: ['query'],
  title: (args) => `web_search ${args.query}`,
}
