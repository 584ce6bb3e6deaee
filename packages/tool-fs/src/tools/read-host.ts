// How `read` looks to other hosts' hooks (docs/decisions/0210-host-protocol-packages.md): Claude Code's
// `Read` with an absolute `file_path`; Codex has no file-reading tool, so it keeps its own name there.
import { type ClaudeToolMapping, claudeAbsolutePath, claudeDefined } from '@tack/claude-protocol'
import { isJsonObject } from '@tack/tools'

export const readHost: { readonly claude: ClaudeToolMapping } = {
  claude: {
    name: 'Read',
    toInput(args, cwd) {
      const a = isJsonObject(args) ? args : {}
      return claudeDefined({
        file_path: claudeAbsolutePath(a.file_path, cwd),
        offset: a.offset,
        limit: a.limit,
      })
    },
  },
}
