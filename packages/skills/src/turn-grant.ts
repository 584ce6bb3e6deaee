// The one place a command's `allowed-tools` become a grant for its turn (85-skills-and-commands.md C2,
// K4: trusted sources only; the caller checked that). The grant itself — tool patterns pre-approved
// until the turn ends — belongs with the `skill` tool, which grants a skill's `allowed-tools` the same
// way, and is being built beside this (docs/decisions/0275-prompt-commands.md, "Open"). Until it is wired
// here, the patterns are recorded in `command/expanded` and said once per file on stderr, and the turn's
// tool calls are decided by the permissions as usual: nothing is approved that was not before.
import type { Agent } from '@tack/agent'
import type { Context } from 'cordis'

const said = new Set<string>()

export function grantToolsForTurn(
  ctx: Context,
  _agent: Agent,
  patterns: readonly string[],
  file: string,
): void {
  if (said.has(file)) return
  said.add(file)
  ctx
    .logger('skills')
    .warn(`${file}: allowed-tools (${patterns.join(', ')}) are not pre-approved yet; tool calls ask as usual`)
}
