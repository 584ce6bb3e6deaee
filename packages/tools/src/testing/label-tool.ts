// `label {target, words}`: a plugin's tool that none of the hook bridges, the mod host or the
// transcripts has ever heard of, for the acceptance of docs/decisions/0210-host-protocol-packages.md. It
// declares how Claude Code's hooks see it (label-host.ts) and nothing else in tack names it or its
// arguments.
import { resolve } from 'node:path'
import { defineTool } from '../define-tool.ts'
import { labelHost } from './label-host.ts'
import { pluginOfTool, writeCreatingFolders } from './own-package.ts'

export const labelTool = defineTool({
  name: 'label',
  description: 'Writes `words` to the file `target` (creating folders).',
  host: labelHost,
  access: 'write',
  paths: (args) => [args.target],
  parameters: {
    type: 'object',
    properties: { target: { type: 'string', minLength: 1 }, words: { type: 'string' } },
    required: ['target', 'words'],
  },
  async execute(args, call) {
    await writeCreatingFolders(resolve(call.cwd, args.target), args.words)
    return `labelled ${args.target}`
  },
})

/** A plugin of its own that registers `label`, as a third-party tool package would. */
export const LabelToolPlugin = pluginOfTool('label-tool', labelTool)
