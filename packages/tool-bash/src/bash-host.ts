// How `bash` looks to other hosts' hooks (docs/decisions/0210-host-protocol-packages.md): Claude Code's
// `Bash` (`timeout_ms` is its `timeout`; `run_in_background` has no counterpart and is dropped from an
// `updatedInput`; a call that asks to leave the sandbox carries Claude Code's `dangerouslyDisableSandbox:
// true`); Codex's `Bash`, which carries only the command, and for such a call its justification as
// `description`, as Codex's PermissionRequest input does (protocols.md §B.3) — a rewrite keeps the
// call's own timeout, description and escalation (docs/decisions/0315-leaving-the-sandbox.md).
import { argumentsFromClaudeInput, type ClaudeToolMapping, claudeDefined } from '@tack/claude-protocol'
import { type CodexToolMapping, codexBashInput, codexCommandOf } from '@tack/codex-protocol'
import { isJsonObject } from '@tack/tools'

const ESCALATED = 'require_escalated'

const isEscalated = (args: Readonly<Record<string, unknown>>): boolean =>
  args.sandbox_permissions === ESCALATED

export const bashHost: { readonly claude: ClaudeToolMapping; readonly codex: CodexToolMapping } = {
  claude: {
    name: 'Bash',
    toInput(args) {
      const a = isJsonObject(args) ? args : {}
      return claudeDefined({
        command: a.command,
        description: a.description,
        timeout: a.timeout_ms,
        dangerouslyDisableSandbox: isEscalated(a) ? true : undefined,
      })
    },
    fromInput(input) {
      const { dangerouslyDisableSandbox, ...rest } = input
      const args = argumentsFromClaudeInput(rest, {
        rename: { timeout: 'timeout_ms' },
        drop: ['run_in_background'],
      })
      // Kept as asked (the decision was made on the original call, justification and all); one the
      // original call did not make is denied by the permission plugin.
      return dangerouslyDisableSandbox === true ? { ...args, sandbox_permissions: ESCALATED } : args
    },
  },
  codex: {
    name: 'Bash',
    toInput(args) {
      const a = isJsonObject(args) ? args : {}
      const input = codexBashInput(a.command)
      return isEscalated(a) && typeof a.justification === 'string'
        ? { ...input, description: a.justification }
        : input
    },
    fromInput: (input, call) => ({
      ...(isJsonObject(call.original) ? call.original : {}),
      command: codexCommandOf('Bash', input),
    }),
  },
}
