// How `edit` looks to other hosts' hooks (docs/decisions/0210-host-protocol-packages.md): Claude Code's
// `Edit` (the same field names); Codex's `apply_patch`, whose patch is the replacement against the file as
// it is, read back as one replacement.
import type { ClaudeToolMapping } from '@tack/claude-protocol'
import { claudeFileInput } from './claude-file-input.ts'
import { type CodexToolMapping, codexEditInput, replacementFromCodexPatch } from '@tack/codex-protocol'
import { isJsonObject } from '@tack/tools'

const text = (value: unknown): string => (typeof value === 'string' ? value : '')

export const editHost: { readonly claude: ClaudeToolMapping; readonly codex: CodexToolMapping } = {
  claude: {
    name: 'Edit',
    toInput: (args, cwd) => claudeFileInput(args, cwd, ['old_string', 'new_string', 'replace_all']),
  },
  codex: {
    name: 'apply_patch',
    toInput(args, cwd) {
      const a = isJsonObject(args) ? args : {}
      const path = String(a.file_path ?? '')
      return codexEditInput(cwd, path, text(a.old_string), text(a.new_string), a.replace_all === true)
    },
    async fromInput(input, call) {
      const { path, oldText, newText } = await replacementFromCodexPatch(input, call.cwd)
      return { file_path: path, old_string: oldText, new_string: newText }
    },
  },
}
