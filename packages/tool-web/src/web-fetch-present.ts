// How `web_fetch` looks (presentation.ts in @tack/tools): a fetch, shown by its address.
import type { ToolPresentation } from '@tack/tools'

export const webFetchPresentation: ToolPresentation<{ readonly url: string }, 'url'> = {
  kind: 'fetch',
  key: ['url'],
  title: (args) => `web_fetch ${args.url}`,
}
