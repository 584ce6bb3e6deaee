// Which layer set each base URL (issue 9 item 1): `@tack/llm` refuses to send a key to a base URL that a
// project config chose, so the loader, which alone knows where each value came from, tells it.
import type { LlmOrigins, ValueOrigin } from '@tack/llm'
import type { ConfigLayer } from './load.ts'

/** `user`: `$TACK_HOME/config.yml` or `--config FILE`; `project`: `<workspace>/.tack/config.yml`; `flag`. */
export type LayerOrigin = ValueOrigin

export interface SourcedLayer {
  readonly layer: ConfigLayer
  readonly origin: LayerOrigin
  readonly file?: string
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The origin of the last layer (in merge order) that set each base-URL-bearing value. `topLevelWins`:
 * the merged settings have a top-level `baseUrl`, which replaces `plugins.llm.baseUrl` at boot.
 */
export function llmOriginsOf(layers: readonly SourcedLayer[], topLevelWins: boolean): LlmOrigins {
  let top: ValueOrigin | undefined
  let plugin: ValueOrigin | undefined
  const endpoints: Record<string, { baseUrl?: ValueOrigin; headers?: ValueOrigin }> = {}
  for (const { layer, origin } of layers) {
    if (layer.baseUrl !== undefined) top = origin
    const llm = layer.plugins?.llm
    if (!isObject(llm)) continue
    if (llm.baseUrl !== undefined) plugin = origin
    if (!isObject(llm.endpoints)) continue
    for (const [name, endpoint] of Object.entries(llm.endpoints)) {
      if (!isObject(endpoint)) continue
      endpoints[name] ??= {}
      if (endpoint.baseUrl !== undefined) endpoints[name].baseUrl = origin
      if (endpoint.headers !== undefined) endpoints[name].headers = origin
    }
  }
  const baseUrl = topLevelWins ? top : plugin
  return { ...(baseUrl ? { baseUrl } : {}), endpoints }
}
