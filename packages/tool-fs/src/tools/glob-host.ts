// How `glob` looks to Claude Code's hooks (docs/decisions/0210-host-protocol-packages.md): its `Glob`.
import { type ClaudeToolMapping, claudeDefined } from '@tack/claude-protocol'
import { isJsonObject } from '@tack/tools'

export const globHost: { readonly claude: ClaudeToolMapping } = {
  claude: {
    name: 'Glob',
    toInput(args) {
      const a = isJsonObject(args) ? args : {}
      return claudeDefined({ pattern: a.pattern, path: a.path })
    },
  },
}
