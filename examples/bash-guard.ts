// An example plugin of your own (docs/decisions/0014-user-plugins.md): a guard on `tools/pre-execute` that
// denies bash commands containing a configured phrase, with a reason the model sees. Load it from config:
//
//   plugins:
//     ./examples/bash-guard.ts: { deny: ['rm -rf', 'git push --force'] }
//
// It is loaded after tack's built-in plugins, so the permission mode and your hooks decide first; when
// they let the call through, this guard can still deny it.
import { definePlugin, Schema } from '@tack/kernel'
import type { PreToolDecision, ToolExecution } from '@tack/tools'

export default definePlugin({
  name: 'bash-guard',
  Config: Schema.object({
    deny: Schema.stringList({
      default: ['rm -rf /', 'git push --force'],
      description: 'Phrases that, found anywhere in a bash command, deny the call.',
    }),
  }),
  apply(ctx, config) {
    ctx.on('tools/pre-execute', async (exec: ToolExecution, next: () => Promise<PreToolDecision>) => {
      if (exec.name === 'bash') {
        const command = String((exec.arguments as { command?: unknown } | undefined)?.command ?? '')
        const phrase = config.deny.find((p) => command.includes(p))
        if (phrase)
          return {
            action: 'deny',
            reason: `bash-guard: commands containing "${phrase}" are not allowed here`,
          }
      }
      return next()
    })
  },
})
