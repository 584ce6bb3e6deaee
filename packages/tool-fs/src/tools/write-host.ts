// How `write` looks to other hosts' hooks (docs/decisions/0210-host-protocol-packages.md): Claude Code's
// `Write`; Codex's `apply_patch`, whose patch is an Add File or a whole-file Update File, read back as a
// whole-file write.
import type { ClaudeToolMapping } from '@tack/claude-protocol'
import { claudeFileInput } from './claude-file-input.ts'
import { type CodexToolMapping, codexWriteInput, writeFromCodexPatch } from '@tack/codex-protocol'
import { isJsonObject } from '@tack/tools'

export const writeHost: { readonly claude: ClaudeToolMapping; readonly codex: CodexToolMapping } = {
  claude: {
    name: 'Write',
    toInput: (args, cwd) => claudeFileInput(args, cwd, ['content']),
  },
  codex: {
    name: 'apply_patch',
    toInput(args, cwd) {
      const a = isJsonObject(args) ? args : {}
      return codexWriteInput(cwd, String(a.file_path ?? ''), typeof a.content === 'string' ? a.content : '')
    },
    async fromInput(input, call) {
      const { path, content } = await writeFromCodexPatch(input, call.cwd)
      return { file_path: path, content }
    },
  },
}
