// The plugin providing `ctx.commands`. It has no configuration; the built-in commands are registered by
// the plugins that own what they act on, or by the host (apps/tack's `builtin-commands`).
import { definePlugin, Schema } from '@tack/kernel'
import { CommandRegistry } from './registry.ts'

export const CommandsConfig = Schema.object({})

export const CommandsPlugin = definePlugin({
  name: 'commands',
  Config: CommandsConfig,
  apply(ctx) {
    new CommandRegistry(ctx)
  },
})
