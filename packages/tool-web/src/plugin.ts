// The plugin that registers `web_fetch` and, when a search provider is available, `web_search`.
// Disposing it removes both (TL-1).
import { declareSecrets, definePlugin } from '@tack/kernel'
import { registerTool } from '@tack/tools'
import { createBraveProvider } from './brave.ts'
import { WebToolsConfig } from './config.ts'
import type { SearchProvider } from './search.ts'
import { createWebFetchTool, type WebToolOptions } from './web-fetch.ts'
import { createWebSearchTool } from './web-search.ts'

/** The configured provider, or undefined (then only a `web/search` listener can answer). */
export function configuredProvider(
  config: WebToolsConfig,
  options: WebToolOptions = {},
): SearchProvider | undefined {
  if (config.searchProvider !== 'brave') return undefined
  const apiKey = (config.env ?? process.env)[config.searchApiKeyEnv]
  if (!apiKey) return undefined
  return createBraveProvider({
    apiKey,
    baseUrl: config.searchBaseUrl,
    timeoutMs: config.timeoutMs,
    maxBytes: config.maxBytes,
    userAgent: config.userAgent,
    ...(options.resolver ? { resolver: options.resolver } : {}),
  })
}

/** Whether `web_search` is offered: a key for the built-in provider, or a plugin promised to answer. */
export function offersSearch(config: WebToolsConfig, provider: SearchProvider | undefined): boolean {
  return config.searchProvider === 'plugin' || provider !== undefined
}

export function createWebToolsPlugin(options: WebToolOptions = {}) {
  return definePlugin({
    name: 'tool-web',
    Config: WebToolsConfig,
    inject: ['tools'],
    apply(ctx, config) {
      // The search key never reaches a command, whatever its name (bash's own scrub only catches names
      // that look secret) and whichever provider is configured (ctx.secrets).
      declareSecrets(ctx, { variables: [config.searchApiKeyEnv] })
      registerTool(ctx, createWebFetchTool(config, options))
      const provider = configuredProvider(config, options)
      if (offersSearch(config, provider)) registerTool(ctx, createWebSearchTool(ctx, config, provider))
    },
  })
}

export const WebToolsPlugin = createWebToolsPlugin()
