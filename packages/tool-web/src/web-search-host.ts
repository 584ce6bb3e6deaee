// How `web_search` looks to Claude Code's hooks (docs/decisions/0210-host-protocol-packages.md): its
// `WebSearch`; its domain filters have no counterpart in tack's search and are dropped from an `updatedInput`.
import { argumentsFromClaudeInput, type ClaudeToolMapping, claudeDefined } from '@tack/claude-protocol'
import { isJsonObject } from '@tack/tools'

export const webSearchHost: { readonly claude: ClaudeToolMapping } = {
  claude: {
    name: 'WebSearch',
    toInput: (args) => claudeDefined({ query: isJsonObject(args) ? args.query : undefined }),
    fromInput: (input) => argumentsFromClaudeInput(input, { drop: ['allowed_domains', 'blocked_domains'] }),
  },
}
