// Slash commands over ACP (50-acp.md requirement 13): the commands of 80-cli.md §5 this build can
// run, advertised with `available_commands_update`. A prompt starting with `/<name>` of one of them
// runs it instead of a model turn; its answer is an agent message and the prompt settles `end_turn`.
// `compact` runs `ctx.compact()` (docs/decisions/0093-acp-code-mode-and-compact.md); `export` is not
// offered (no export over ACP yet), and an unknown `/x` goes to the model as text.
import type { AvailableCommand } from '@agentclientprotocol/sdk'
import type { AnySessionEvent, SessionEvent } from '@tack/session'

export const ACP_COMMANDS: readonly AvailableCommand[] = Object.freeze([
  {
    name: 'permissions',
    description: 'Show or set the permission mode (ask, workspace-write, read-only, yolo)',
    input: { hint: 'mode' },
  },
  { name: 'model', description: 'Show or set the model of this session', input: { hint: 'provider/model' } },
  {
    name: 'tools-mode',
    description: 'Show or set how tools reach the model (native, code, both)',
    input: { hint: 'mode' },
  },
  { name: 'cost', description: 'Tokens used by this session so far' },
  {
    name: 'compact',
    description: 'Summarise older messages to free context; optional instructions say what to keep',
    input: { hint: 'instructions' },
  },
])

/** The commands this server offers: `compact` only while the compaction plugin is loaded. */
export function acpCommands(compaction: boolean): AvailableCommand[] {
  return ACP_COMMANDS.filter((c) => compaction || c.name !== 'compact')
}

/** Maps a command to the config option it shows or sets. */
export const COMMAND_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  permissions: 'permission_mode',
  model: 'model',
  'tools-mode': 'tools_mode',
})

export function isAcpCommand(name: string, compaction: boolean): boolean {
  return acpCommands(compaction).some((c) => c.name === name)
}

/** The token totals of a session's requests. */
export function costText(events: readonly SessionEvent[]): string {
  let requests = 0
  let input = 0
  let output = 0
  let cached = 0
  for (const event of events) {
    const e = event as AnySessionEvent
    if (e.type !== 'assistant/message' || !e.data.usage) continue
    requests++
    input += e.data.usage.inputTokens
    output += e.data.usage.outputTokens
    cached += e.data.usage.cachedInputTokens ?? 0
  }
  return `${requests} model request${requests === 1 ? '' : 's'}: ${input} input tokens (${cached} cached), ${output} output tokens.`
}
