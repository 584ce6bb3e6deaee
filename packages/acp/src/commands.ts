// Slash commands over ACP (50-acp.md requirement 13): the commands of tack's one registry
// (`@tack/commands`, docs/decisions/0103-slash-commands.md) that an ACP client can run — built-in and
// plugins' alike — advertised with `available_commands_update`. A prompt starting with `/<name>` of one
// of them runs it (firing `ui/command`) instead of a model turn; an unknown `/x` goes to the model.
import type { AvailableCommand } from '@agentclientprotocol/sdk'
import type { CommandRegistry } from '@tack/commands'

/** The commands this server offers: the registry's for the `acp` surface (none without a registry). */
export function acpCommands(registry: CommandRegistry | undefined): AvailableCommand[] {
  return (registry?.list({ surface: 'acp' }) ?? []).map((c) => ({
    name: c.name,
    description: c.description,
    ...(c.args ? { input: { hint: c.args } } : {}),
  }))
}
