// The validated config of `tack serve` (`plugins.serve` in a config file, 95-fleet.md F5,
// docs/decisions/0360-web-view.md). Not a plugin that does anything at boot: the catalog lists it so its
// fields are checked at load, documented in docs/configuration.md and classified for untrusted
// workspaces; `tack serve` reads it (flags win) when it starts the server.
import { type ConfigOf, definePlugin, Schema } from '@tack/kernel'

export const ServeConfig = Schema.object({
  host: Schema.string({
    nonEmpty: true,
    default: '127.0.0.1',
    description:
      'Address `tack serve` listens on (`--host` wins). A loopback address (127.0.0.1, ::1, localhost) needs no token; any other requires the bearer token.',
  }),
  port: Schema.integer({
    default: 7433,
    min: 0,
    max: 65_535,
    description: 'TCP port `tack serve` listens on (`--port` wins); 0 picks a free one, printed at start.',
  }),
  pollMs: Schema.integer({
    default: 500,
    min: 50,
    max: 60_000,
    description:
      'Milliseconds between two reads of the session store (and of the jobs) while a browser watches a page: how soon an appended event shows.',
  }),
  tokenEnv: Schema.string({
    nonEmpty: true,
    default: 'TACK_SERVE_TOKEN',
    description:
      'Environment variable holding the bearer token for a non-loopback address; when it is unset or empty a token is generated and printed once at start.',
  }),
})

export type ServeConfig = ConfigOf<typeof ServeConfig>

/** The catalog's entry point: its config only (what `tack serve` does with it is in apps/tack). */
export const ServePlugin = definePlugin({
  name: 'serve',
  Config: ServeConfig,
  apply() {},
})

/** `plugins.serve` of the settings, validated (`false` or absent: the defaults). */
export function serveConfig(configured: unknown): ServeConfig {
  const own = configured === false || configured === undefined ? {} : (configured as Record<string, unknown>)
  return ServeConfig.parse(own)
}
