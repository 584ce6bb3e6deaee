// The plugin that registers `bash` on the tool registry. Disposing it removes the tool (TL-1).
import { definePlugin } from '@tack/kernel'
import { registerTool } from '@tack/tools'
import { createBashTool } from './bash-tool.ts'
import { BashToolConfig } from './config.ts'

export const BashToolPlugin = definePlugin({
  name: 'tool-bash',
  Config: BashToolConfig,
  inject: ['tools'],
  apply(ctx, config) {
    registerTool(ctx, createBashTool(config))
  },
})
