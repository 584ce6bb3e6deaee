// `stamp {file_path, text}`: a tool "from its own package" for the acceptance of 0011 (issue 8 item 2).
// It declares what it does — a write of `file_path`, named `Stamp` by Claude Code hooks and
// `stamp_file` by Codex hooks — and nothing else in tack names it: the permission plugin, the
// workspace scope and both hook bridges must learn all of that from the declaration. Its body writes
// blindly (no scope check of its own), so a test sees that the scope held it, not the tool.
import { resolve } from 'node:path'
import { defineTool } from '../define-tool.ts'
import { pluginOfTool, writeCreatingFolders } from './own-package.ts'

export const stampTool = defineTool({
  name: 'stamp',
  description: 'Writes `text` to `file_path` (creating folders).',
  access: 'write',
  paths: (args) => [args.file_path],
  host: { claude: { name: 'Stamp' }, codex: { name: 'stamp_file' } },
  parameters: {
    type: 'object',
    properties: { file_path: { type: 'string', minLength: 1 }, text: { type: 'string', default: 'stamped' } },
    required: ['file_path'],
  },
  async execute(args, call) {
    await writeCreatingFolders(resolve(call.cwd, args.file_path), args.text)
    return `stamped ${args.file_path}`
  },
})

/** A plugin of its own that registers `stamp`, as a third-party tool package would. */
export const StampToolPlugin = pluginOfTool('stamp-tool', stampTool)
