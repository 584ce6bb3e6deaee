// The built-in slash commands of 80-cli.md §5.4, registered on `ctx.commands` for every host (the
// interactive UI, `tack run "/name"`, ACP). They read the services they act on when they run, so a
// plugin turned off in config (compaction, permissions) makes its command answer an error naming the key.
import type { Context } from 'cordis'
import { modeCommands } from './mode-commands.ts'
import { modelCommands } from './model-commands.ts'
import { productCommands } from './product-commands.ts'
import { sessionCommands } from './session-commands.ts'

export interface BuiltinCommandsOptions {
  /** $TACK_HOME. */
  readonly home: string
  /** The permission mode agents start in when they set none (the settings' `permissionMode`). */
  readonly permissionMode: string
  /** The permissions plugin is turned off (`plugins.permissions: false`): `/permissions` says so. */
  readonly permissionsOff?: boolean
}

/** The plugin, its options as its config (boot passes them, core-plugins.ts). */
export const BuiltinCommandsPlugin = {
  name: 'builtin-commands',
  inject: ['commands'],
  apply(ctx: Context, opts: BuiltinCommandsOptions) {
    for (const def of [
      ...sessionCommands(ctx),
      ...modelCommands(ctx),
      ...modeCommands(ctx, {
        permissionMode: opts.permissionMode,
        permissionsOff: opts.permissionsOff === true,
      }),
      ...productCommands(ctx, { home: opts.home }),
    ])
      ctx.commands.register(def)
  },
}

/** The plugin with its options bound, for a host that loads it without config. */
export function builtinCommandsPlugin(opts: BuiltinCommandsOptions) {
  return { ...BuiltinCommandsPlugin, apply: (ctx: Context) => BuiltinCommandsPlugin.apply(ctx, opts) }
}
