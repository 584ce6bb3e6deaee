// `label {target, words}`: a plugin's tool that none of the hook bridges, the mod host or the
// transcripts has ever heard of, for the acceptance of docs/decisions/0210-host-protocol-packages.md. It
// declares how Claude Code's hooks see it — the tool `Label`, whose input is `{path (absolute), text}`
// and whose response is `{labelled, ok}` — and nothing else in tack names it or its arguments.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { definePlugin, Schema } from '@tack/kernel'
import { isJsonObject } from '../arguments.ts'
import { defineTool } from '../define-tool.ts'
import { registerTool } from '../registry.ts'

export const labelTool = defineTool({
  name: 'label',
  description: 'Writes `words` to the file `target` (creating folders).',
  access: 'write',
  paths: (args) => [args.target],
  host: {
    claude: {
      name: 'Label',
      toInput(args: unknown, cwd: string) {
        const a = isJsonObject(args) ? args : {}
        return { path: typeof a.target === 'string' ? resolve(cwd, a.target) : a.target, text: a.words }
      },
      fromInput: (input: Readonly<Record<string, unknown>>) => ({ target: input.path, words: input.text }),
      toResponse: (args: unknown, result: { readonly isError: boolean }) => ({
        labelled: isJsonObject(args) ? args.target : undefined,
        ok: !result.isError,
      }),
    },
  },
  parameters: {
    type: 'object',
    properties: { target: { type: 'string', minLength: 1 }, words: { type: 'string' } },
    required: ['target', 'words'],
  },
  async execute(args, call) {
    const path = resolve(call.cwd, args.target)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, args.words)
    return `labelled ${args.target}`
  },
})

/** A plugin of its own that registers `label`, as a third-party tool package would. */
export const LabelToolPlugin = definePlugin({
  name: 'label-tool',
  Config: Schema.object({}),
  inject: ['tools'],
  apply(ctx) {
    registerTool(ctx, labelTool)
  },
})
