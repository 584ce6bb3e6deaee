// The validated config of `tack run`'s progress on stderr (`plugins.run` in a config file,
// docs/decisions/0310-failures-stay-visible.md). Not a plugin that does anything at boot: the catalog
// lists it so its fields are checked at load, documented in docs/configuration.md and classified for
// untrusted workspaces like every other field; `tack run` reads it when it sets up its reporter.
import { type ConfigOf, definePlugin, Schema } from '@tack/kernel'

export const RunProgressConfig = Schema.object({
  failureTailLines: Schema.integer({
    default: 5,
    min: 0,
    max: 200,
    description:
      "Last lines of a failed command's output (where the error is) `tack run` prints under the call's ✗ line on stderr; 0 prints none.",
  }),
  summary: Schema.boolean({
    default: true,
    description:
      'Whether `tack run` on a terminal (and with -v anywhere) ends with a summary line on stderr: calls, failures, tokens, cost, duration.',
  }),
})

export type RunProgressConfig = ConfigOf<typeof RunProgressConfig>

/** The catalog's entry point: its config only (what `tack run` does with it is in run/progress.ts). */
export const RunProgressPlugin = definePlugin({
  name: 'run',
  Config: RunProgressConfig,
  apply() {},
})

/** `plugins.run` of the settings, validated (`false` or absent: the defaults). */
export function runProgressConfig(configured: unknown): RunProgressConfig {
  const own = configured === false || configured === undefined ? {} : (configured as Record<string, unknown>)
  return RunProgressConfig.parse(own)
}
