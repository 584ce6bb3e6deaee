// The web tools' validated Config. Every field has a default, a range checked at load and a README
// row. The address switches default to off: a URL the model writes (perhaps copied from a page that
// was written to mislead it) must not reach services on this machine or its network.
import { type ConfigOf, ObjectSchema, Schema } from '@tack/kernel'

type Env = Record<string, string>

const isEnv = (value: unknown): value is Env =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string')

const isHttpUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

const fields = {
  timeoutMs: Schema.integer({
    default: 30_000,
    min: 100,
    max: 600_000,
    description:
      'Milliseconds one `web_fetch` (all its redirects and the body together) or one search request may take; then it fails `TIMEOUT`.',
  }),
  maxBytes: Schema.integer({
    default: 5 * 1024 * 1024,
    min: 1024,
    max: 64 * 1024 * 1024,
    description:
      'Bytes of a response body read (after decompression); the rest is not downloaded and the result says the page was cut.',
  }),
  maxResultChars: Schema.integer({
    default: 100_000,
    min: 1_000,
    max: 10_000_000,
    description:
      'Characters of converted page text returned to the model; longer text is cut and the result says so.',
  }),
  maxRedirects: Schema.integer({
    default: 5,
    min: 0,
    max: 20,
    description:
      'Redirects `web_fetch` follows; every hop is checked like the first URL. One more fails `TOO_MANY_REDIRECTS`.',
  }),
  allowLoopback: Schema.boolean({
    default: false,
    description:
      '`web_fetch` may connect to loopback addresses (127.0.0.0/8, ::1) — local development servers, and any local service a prompt injection would like to reach.',
  }),
  allowPrivateNetworks: Schema.boolean({
    default: false,
    description:
      '`web_fetch` may connect to private-network addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7).',
  }),
  allowLinkLocal: Schema.boolean({
    default: false,
    description:
      '`web_fetch` may connect to link-local addresses (169.254/16, fe80::/10), where cloud metadata services answer with credentials.',
  }),
  userAgent: Schema.string({
    default: 'Mozilla/5.0 (compatible; tack-web-fetch/0.1)',
    nonEmpty: true,
    description: 'The User-Agent header of `web_fetch` and search requests.',
  }),
  searchProvider: Schema.enum(['brave', 'plugin', 'off'], {
    default: 'brave',
    description:
      'Who answers `web_search`. `brave`: the Brave Search API, with the key from `searchApiKeyEnv` (no key: the tool is not offered); `plugin`: only a plugin listening on the `web/search` seam; `off`: no `web_search` tool.',
  }),
  searchApiKeyEnv: Schema.string({
    default: 'BRAVE_API_KEY',
    nonEmpty: true,
    description:
      "The environment variable holding the search provider's API key (also read from `$TACK_HOME/.env`).",
  }),
  searchBaseUrl: Schema.json<string>({
    default: 'https://api.search.brave.com/res/v1/web/search',
    allowed: 'an http or https URL',
    test: isHttpUrl,
    description: "The search provider's endpoint; the API key is sent only there.",
  }),
  searchMaxResults: Schema.integer({
    default: 10,
    min: 1,
    max: 20,
    description: 'Most results one `web_search` returns (the call may ask for fewer with `max_results`).',
  }),
  env: Schema.json<Env>({
    allowed: 'an object of string values',
    test: isEnv,
    description:
      "Where the search key is looked up. Default: tack's own process environment. The CLI sets it.",
  }).optional(),
}

export const WebToolsConfig = new ObjectSchema(
  fields,
  'The web tools: web_fetch and web_search (@tack/tool-web).',
)
export type WebToolsConfig = ConfigOf<typeof WebToolsConfig>
