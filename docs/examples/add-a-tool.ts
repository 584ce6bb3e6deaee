// Worked example (docs/architecture.md, "Add a tool"): a tool in a package of its own. It declares
// what it does — it reads (`access`), which file a call touches (`paths`) — so the permission plugin,
// the workspace scope and the hook bridges judge it with no edit anywhere else in tack.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { definePlugin, Schema } from '@tack/kernel'
import { defineTool, ToolFailure } from '@tack/tools'

export const wordCountTool = defineTool({
  name: 'word_count',
  description: 'Counts the lines and words of a text file in the workspace.',
  access: 'read',
  paths: (args) => [args.file_path],
  parameters: {
    type: 'object',
    properties: {
      file_path: { type: 'string', minLength: 1, description: 'The file, relative or absolute.' },
    },
    required: ['file_path'],
  },
  // `args` is typed from the schema: { file_path: string }. The pipeline has validated it and held
  // `paths` to the workspace before this body runs.
  async execute(args, call) {
    const text = await readFile(resolve(call.cwd, args.file_path), 'utf8').catch(() => {
      throw new ToolFailure('NOT_FOUND', `${args.file_path} cannot be read`)
    })
    const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    const words = text.split(/\s+/).filter(Boolean).length
    return { content: `${args.file_path}: ${lines} lines, ${words} words`, meta: { lines, words } }
  },
})

/** Load it like any plugin: `ctx.plugin(WordCountPlugin, {})`, or name this file under `plugins:`. */
export const WordCountPlugin = definePlugin({
  name: 'word-count',
  Config: Schema.object({}),
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register(wordCountTool)
  },
})
