// What a plugin needs from `boot` (apps/tack/src/boot.ts), declared beside it in the catalog
// (plugin-catalog.ts) or among the core plugins (core-plugins.ts): whether this run loads it, the
// config values boot derives from its options, the services it waits for. `boot` is one loop over
// these entries; nothing in it names a plugin, and the order of the entries changes nothing: seam
// order comes from the seams' declared phases (docs/decisions/0205-seam-phases.md), and a plugin that
// needs another's service waits for it through cordis `inject`.
import type { ModSpec } from '@tack/mods'
import type { Context } from 'cordis'
import type { CliRuleSpecs } from './cli-rules.ts'
import type { Settings } from './config/load.ts'
import type { TackPaths } from './paths.ts'
import type { UserPluginRef } from './user-plugins.ts'
import type { WorkspaceTrust } from './workspace-trust.ts'

export interface BootOptions {
  readonly settings: Settings
  readonly paths: TackPaths
  readonly env: NodeJS.ProcessEnv
  readonly cwd: string
  readonly noSession?: boolean
  /** Only the store and the sessions service (for `tack sessions …`). */
  readonly storeOnly?: boolean
  /** Whether the workspace is trusted: project hooks run only then (docs/decisions/0013). */
  readonly trust: WorkspaceTrust
  /** The user's own plugins to load after the built-ins, in order (`findUserPlugins`). */
  readonly userPlugins?: readonly UserPluginRef[]
  /** Where plugin warnings go (stderr); absent: not printed. */
  readonly warn?: (line: string) => void
  readonly verbose?: boolean
  /** `--allow` / `--deny` rules for this run, added to the permission plugin's (cli-rules.ts). */
  readonly cliRules?: CliRuleSpecs
  /** `--sandbox-writable` folders for this run, absolute (sandbox-writable-flag.ts). */
  readonly sandboxWritable?: readonly string[]
  /** Claude Code mod folders to load, in order (`findModFolders`). */
  readonly mods?: readonly ModSpec[]
  /** false: do not create $TACK_HOME (`tack doctor` checks it itself and reports it as a problem). */
  readonly makeHome?: boolean
}

type Config = Record<string, unknown>

export interface BootRole {
  /** Loaded by a store-only boot (`tack sessions …`) too. */
  readonly storeOnly?: boolean
  /** Whether this run loads it, when its config does not turn it off; default yes. */
  readonly loads?: (opts: BootOptions) => boolean
  /** Config under the user's `plugins.<key>`: what boot derives from its options (tack's home, …). */
  readonly defaults?: (opts: BootOptions) => Config
  /** Config over the user's: what this run fixes whatever a config file says (a flag, the trust store). */
  readonly overrides?: (opts: BootOptions, merged: Config) => Config
  /** Services it waits for besides its own `inject` (cordis applies it once they are all there). */
  readonly inject?: (opts: BootOptions) => readonly string[]
  /** The plugin to load when it is built from the boot options (llm: the environment its keys are in). */
  readonly plugin?: (opts: BootOptions) => Promise<unknown>
  /** Why this run cannot go on when its config turns it off; undefined: it can. */
  readonly neededBy?: (opts: BootOptions) => string | undefined
  /**
   * Work to start before any plugin is loaded, when this run loads it (MCP: spawning the stdio servers,
   * so they start while tack boots). Answers how to undo it if the boot then fails.
   */
  readonly early?: (opts: BootOptions) => Promise<(() => Promise<void>) | undefined>
  /** What to do once it is loaded (the code runtime warms up in a non-native tools mode). */
  readonly loaded?: (ctx: Context, opts: BootOptions, config: Config) => void
}

/** One plugin `boot` may load: a catalog entry (a key under `plugins:`) or a core plugin (no key). */
export interface BootEntry {
  readonly key: string
  /** Whether `plugins.<key>` configures it (a catalog entry); core plugins have no config of their own. */
  readonly configurable: boolean
  load(): Promise<{ plugin: unknown }>
  readonly boot?: BootRole
}

/** `plugin` waiting also for `extra` services (cordis `inject`), whatever form its own `inject` has. */
export function withInject(plugin: unknown, extra: readonly string[]): unknown {
  if (extra.length === 0) return plugin
  const p = plugin as { inject?: unknown }
  const own = p.inject
  const inject = Array.isArray(own)
    ? [...own, ...extra]
    : own && typeof own === 'object'
      ? { ...(own as Record<string, unknown>), ...Object.fromEntries(extra.map((name) => [name, {}])) }
      : [...extra]
  // A wrapper, not a mutation: the package's plugin object stays as it is for other boots.
  return Object.assign(Object.create(plugin as object) as object, { inject })
}
