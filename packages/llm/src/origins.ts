// Where a base URL came from (issue 9 item 1, 80-cli.md §4a.2; docs/decisions/0013-workspace-trust.md).
// The invariant: a provider key (or a header the user configured) is only ever sent to a base URL from the
// user's own config, a flag, or the provider's built-in default — never to one a project's config chose,
// trusted or not. Config values carry no provenance themselves (a YAML file could claim any), so the
// embedder that layered the config says which values came from a project; values it says nothing about
// are its own (`user`).

import { join } from 'node:path'
import { resolveTackHome } from '@tack/kernel/home'

/** Who set a config value: the user's own files, a command-line flag, or a workspace's project config. */
export type ValueOrigin = 'user' | 'flag' | 'project'

/** Where a resolved base URL came from: a config value's origin, or the provider's built-in default. */
export type BaseUrlSource = ValueOrigin | 'builtin'

export interface LlmOrigins {
  /** Origin of the `baseUrl` config field (the CLI's `--base-url` or `baseUrl:` in a file). */
  readonly baseUrl?: ValueOrigin
  /** Per endpoint name: the origin of its `baseUrl` and of its `headers`. */
  readonly endpoints?: Readonly<
    Record<string, { readonly baseUrl?: ValueOrigin; readonly headers?: ValueOrigin }>
  >
}

/** Why a key or header may not go to a project-chosen base URL (the one-line fix). */
export function projectBaseUrlProblem(
  provider: string,
  credential: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return (
    `the base URL of "${provider}" comes from the workspace's project config, and tack sends ${credential} only ` +
    `to a base URL from your own config (${join(resolveTackHome(env), 'config.yml')}, --config), --base-url, or the provider default: ` +
    'move the endpoint to your own config'
  )
}
