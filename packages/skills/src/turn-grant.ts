// A command's `allowed-tools` become a grant for the turn its prompt starts (85-skills-and-commands.md
// C2, K4: trusted sources only; the caller checked that). The grant is the one the `skill` tool makes
// (grants.ts): a `skill/tools-granted` event in that turn, read back by the `tools/pre-execute` listener,
// so it ends with the turn. A pattern tack cannot read is said once on stderr and grants nothing.
import type { Agent } from '@tack/agent'
import type { Context } from 'cordis'
import { currentTurn, grantToolsForTurn } from './grants.ts'
import { parseToolPattern, understood } from './tool-patterns.ts'

export function grantCommandTools(
  ctx: Context,
  agent: Agent,
  patterns: readonly string[],
  file: string,
  name: string,
): void {
  // `agent/prompt-submit` runs after the turn's `turn/start` (AL-6), so the current turn is this one.
  const turn = currentTurn(agent.session)
  const readable = patterns.filter((p) => {
    const parsed = parseToolPattern(p)
    return parsed !== undefined && understood(parsed)
  })
  const granted = turn === undefined ? [] : grantToolsForTurn(agent, turn, readable, `command:${name}`)
  const unread = patterns.filter((p) => !granted.includes(p))
  if (unread.length > 0)
    ctx
      .logger('skills')
      .warn('%s', `${file}: allowed-tools ${unread.join(', ')} not understood; those tools ask as usual`)
}
