// FsToolsPlugin: registers read, write, edit, glob, grep and todo_write on the tool registry, all
// sharing one validated Config and one set of read-before-edit observations; and `@path` mentions in
// prompts (attached as `read` shows the file) with their `@` completion (docs/decisions/0280-file-mentions.md).
import { definePlugin } from '@tack/kernel'
import { registerTool, withheldTestFor } from '@tack/tools'
import { FsToolsConfig } from './config.ts'
import type { FsEnv } from './env.ts'
import { registerFileMentions } from './mentions/completion.ts'
import { shareMentionEnv } from './mentions/links.ts'
import { listenForMentions } from './mentions/listener.ts'
import { Observations } from './observations.ts'
import { createEditTool } from './tools/edit.ts'
import { createGlobTool } from './tools/glob.ts'
import { createGrepTool } from './tools/grep.ts'
import { createReadTool } from './tools/read.ts'
import { todoWriteTool } from './tools/todo-write.ts'
import { createWriteTool } from './tools/write.ts'

export const FsToolsPlugin = definePlugin({
  name: 'tool-fs',
  Config: FsToolsConfig,
  inject: ['tools'],
  apply(ctx, config) {
    const env: FsEnv = {
      config,
      observations: new Observations(),
      // Read at call time: the permissions plugin may load after this one, or be reloaded.
      withheld: (tool, call) => withheldTestFor(ctx, tool, call),
    }
    for (const tool of [
      createReadTool(env),
      createWriteTool(env),
      createEditTool(env),
      createGlobTool(env),
      createGrepTool(env),
      todoWriteTool,
    ]) {
      registerTool(ctx, tool)
    }
    listenForMentions(ctx, env)
    registerFileMentions(ctx, env)
    shareMentionEnv(ctx, env)
  },
})
