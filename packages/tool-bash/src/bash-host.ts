// How `bash` looks to other hosts' hooks (docs/decisions/0210-host-protocol-packages.md): Claude Code's
// `Bash` (`timeout_ms` is its `timeout`; `run_in_background` has no counterpart and is dropped from an
// `updatedInput`); Codex's `Bash`, which carries only the command — a rewrite keeps the call's own
// timeout and description.
import { argumentsFromClaudeInput, type ClaudeToolMapping, claudeDefined } from '@tack/claude-protocol'
import { type CodexToolMapping, codexBashInput, codexCommandOf } from '@tack/codex-protocol'
import { isJsonObject } from '@tack/tools'

export const bashHost: { readonly claude: ClaudeToolMapping; readonly codex: CodexToolMapping } = {
  claude: {
    name: 'Bash',
    toInput(args) {
      const a = isJsonObject(args) ? args : {}
      return claudeDefined({ command: a.command, description: a.description, timeout: a.timeout_ms })
    },
    fromInput: (input) =>
      argumentsFromClaudeInput(input, { rename: { timeout: 'timeout_ms' }, drop: ['run_in_background'] }),
  },
  codex: {
    name: 'Bash',
    toInput: (args) => codexBashInput(isJsonObject(args) ? args.command : undefined),
    fromInput: (input, call) => ({
      ...(isJsonObject(call.original) ? call.original : {}),
      command: codexCommandOf('Bash', input),
    }),
  },
}
