// How `todo_write` looks to Claude Code's hooks (docs/decisions/0210-host-protocol-packages.md): its
// `TodoWrite`, with the same `{todos}` input.
import type { ClaudeToolMapping } from '@tack/claude-protocol'

export const todoWriteHost: { readonly claude: ClaudeToolMapping } = { claude: { name: 'TodoWrite' } }
