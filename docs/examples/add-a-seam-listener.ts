// Worked example (docs/architecture.md, "Add a seam listener"): a policy on `tools/pre-execute` that
// denies any call whose declared paths name a secrets file. It judges tools by what they declare
// (`paths`), not by their names, so it also covers tools it has never heard of.
import { basename } from 'node:path'
import { definePlugin, Schema } from '@tack/kernel'
import { declaredPaths } from '@tack/tools'

export const NoSecretFilesPlugin = definePlugin({
  name: 'no-secret-files',
  Config: Schema.object({
    names: Schema.stringList({
      default: ['.env', '.npmrc'],
      description: 'File names (any folder) that no tool call may touch; `.env` also covers `.env.local`.',
    }),
  }),
  inject: ['tools'],
  apply(ctx, config) {
    const isSecret = (path: string) =>
      config.names.some((name) => basename(path) === name || basename(path).startsWith(`${name}.`))
    // A waterfall listener: return a decision to answer, or `next()` to let the rest of the chain
    // (permission mode, hooks, other plugins) decide. `exec.arguments` are validated by now.
    ctx.on('tools/pre-execute', async (exec, next) => {
      const tool = ctx.tools.get(exec.name)
      const declared = tool ? declaredPaths(tool, exec.arguments) : undefined
      const secret = declared?.ok ? declared.paths.find(isSecret) : undefined
      if (secret)
        return { action: 'deny', reason: `no-secret-files: ${secret} holds secrets; leave it alone` }
      return next()
    })
  },
})
