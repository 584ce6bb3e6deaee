// How `web_fetch` looks to Claude Code's hooks (docs/decisions/0210-host-protocol-packages.md): its
// `WebFetch`, whose `prompt` (what to extract) tack's fetch has no counterpart for: shown empty, dropped
// from an `updatedInput`.
import { argumentsFromClaudeInput, type ClaudeToolMapping, claudeDefined } from '@tack/claude-protocol'
import { isJsonObject } from '@tack/tools'

export const webFetchHost: { readonly claude: ClaudeToolMapping } = {
  claude: {
    name: 'WebFetch',
    toInput: (args) => claudeDefined({ url: isJsonObject(args) ? args.url : undefined, prompt: '' }),
    fromInput: (input) => argumentsFromClaudeInput(input, { drop: ['prompt'] }),
  },
}
