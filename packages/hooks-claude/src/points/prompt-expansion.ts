// UserPromptExpansion (packages/hooks-claude/README.md, Points) on `ui/prompt-expansion`: a slash command (a prompt
// command file, a skill run as `/name`) has been expanded and is about to be sent. Matcher subject: the
// command's name. Payload: `expansion_type` (`slash_command`), `command_name`, `command_args`,
// `command_source` (`user` or `project`), `prompt` (the expansion). A block (`decision: "block"`, a deny,
// `continue: false` or exit 2) stops it with the reason; plain stdout and `additionalContext` reach the
// model ahead of the prompt. Claude Code fires it after UserPromptSubmit; tack expands before the
// prompt is submitted, so it comes first (docs/decisions/0275-prompt-commands.md).
import type { Agent } from '@tack/agent'
import type { PromptExpansion, PromptExpansionDecision } from '@tack/commands'
import type { ClaudeBridge } from '../bridge.ts'
import { contextItems } from './context.ts'

export async function onPromptExpansion(
  bridge: ClaudeBridge,
  agent: Agent,
  expansion: PromptExpansion,
  next: () => Promise<PromptExpansionDecision>,
): Promise<PromptExpansionDecision> {
  if (agent.parent || !bridge.mayRun('UserPromptExpansion', agent, [expansion.name])) return next()
  const outcome = await bridge.runPoint({
    point: 'UserPromptExpansion',
    agent,
    fields: {
      expansion_type: expansion.type === 'mcp-prompt' ? 'mcp_prompt' : 'slash_command',
      command_name: expansion.name,
      command_args: expansion.args,
      command_source: expansion.source,
      prompt: expansion.prompt,
    },
    subjects: [expansion.name],
    signal: bridge.state(agent).turnSignal(agent),
  })
  if (outcome.stop)
    return {
      action: 'block',
      reason: outcome.stop.reason || 'A UserPromptExpansion hook stopped processing.',
    }
  if (outcome.decision === 'deny')
    return { action: 'block', reason: outcome.reason || 'A UserPromptExpansion hook blocked the command.' }
  const items = contextItems('UserPromptExpansion', outcome.contexts, outcome.plainStdout)
  const decision = await next()
  if (decision.action === 'block' || items.length === 0) return decision
  return { ...decision, additionalContext: [...items, ...(decision.additionalContext ?? [])] }
}
