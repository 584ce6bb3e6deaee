// How the `skill` tool looks to Claude Code's hooks (docs/decisions/0210-host-protocol-packages.md):
// Claude Code's `Skill`, whose input is `{skill, args}`, so a hook matching `Skill` sees tack's loads.
import { type ClaudeToolMapping, claudeDefined } from '@tack/claude-protocol'
import { isJsonObject } from '@tack/tools'

export const skillHost: { readonly claude: ClaudeToolMapping } = {
  claude: {
    name: 'Skill',
    toInput: (args) =>
      claudeDefined({
        skill: isJsonObject(args) ? args.name : undefined,
        args: isJsonObject(args) ? args.args : undefined,
      }),
    fromInput: (input) => claudeDefined({ name: input.skill, args: input.args }),
  },
}
