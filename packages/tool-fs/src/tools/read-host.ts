// How `read` looks to other hosts' hooks (docs/decisions/0210-host-protocol-packages.md): Claude Code's
// `Read` with an absolute `file_path`; Codex has no file-reading tool, so it keeps its own name there.
import type { ClaudeToolMapping } from '@tack/claude-protocol'
import { claudeFileInput } from './claude-file-input.ts'

export const readHost: { readonly claude: ClaudeToolMapping } = {
  claude: {
    name: 'Read',
    toInput: (args, cwd) => claudeFileInput(args, cwd, ['offset', 'limit']),
  },
}
