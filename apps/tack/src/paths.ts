// Where tack keeps its files. `TACK_HOME` moves the whole folder (default `~/.tack`); it is resolved by
// the one resolver every package shares (`@tack/kernel/home`, docs/decisions/0015-tack-home.md).
import { join } from 'node:path'
import { resolveTackHome } from '@tack/kernel/home'

export interface TackPaths {
  readonly home: string
  readonly userConfig: string
  readonly envFile: string
  readonly scratch: string
  readonly dice: string
  /** The user's own plugins (docs/decisions/0014-user-plugins.md). */
  readonly plugins: string
  /** The user's own Claude Code mod folders (docs/decisions/0070-mod-host.md). */
  readonly mods: string
  /** The interactive prompt box's history, one file per folder (@tack/tui prompt-history.ts). */
  readonly history: string
}

export function tackPaths(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): TackPaths {
  const home = resolveTackHome(env, { cwd })
  return {
    home,
    userConfig: join(home, 'config.yml'),
    envFile: join(home, '.env'),
    scratch: join(home, 'scratch'),
    dice: join(home, 'dice'),
    plugins: join(home, 'plugins'),
    mods: join(home, 'mods'),
    history: join(home, 'history'),
  }
}

/** The project config file of a workspace. */
export function projectConfigPath(cwd: string): string {
  return join(cwd, '.tack', 'config.yml')
}

/** The project plugin folder of a workspace. */
export function projectPluginsPath(cwd: string): string {
  return join(cwd, '.tack', 'plugins')
}

/** The project mod folder of a workspace (loaded only when the workspace is trusted). */
export function projectModsPath(cwd: string): string {
  return join(cwd, '.tack', 'mods')
}
