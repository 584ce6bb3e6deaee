// How `subagent` looks to Claude Code's hooks (docs/decisions/0210-host-protocol-packages.md): its `Agent`
// (matched as `Task` too), always of type `general-purpose`; the type and model a hook's `updatedInput`
// names have no counterpart here and are dropped.
import { argumentsFromClaudeInput, type ClaudeToolMapping, claudeDefined } from '@tack/claude-protocol'
import { isJsonObject } from '@tack/tools'

export const subagentHost: { readonly claude: ClaudeToolMapping } = {
  claude: {
    name: 'Agent',
    toInput(args) {
      const a = isJsonObject(args) ? args : {}
      return claudeDefined({ prompt: a.prompt, description: a.description, subagent_type: 'general-purpose' })
    },
    fromInput: (input) => argumentsFromClaudeInput(input, { drop: ['subagent_type', 'model'] }),
  },
}
