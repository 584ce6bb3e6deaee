// PostToolBatch (claude-code-hook-events.md) on `agent/tool-batch`: once every call of one model message
// has its result. `tool_calls[].tool_response` is the result text the model gets. `additionalContext`
// joins the next request once per batch, after the PostToolUse contexts. A block (exit 2, JSON `decision:
// "block"`) or `continue: false` stops the loop: the turn ends after this step, and the reason is warned.
import type { Agent, ToolBatchDecision, ToolBatchInfo } from '@tack/agent'
import type { ClaudeBridge } from '../bridge.ts'
import { rootAgent } from '../payload.ts'
import { withoutSourceLine } from '../env-file.ts'
import { contextItems, withContext } from './context.ts'

export async function onPostToolBatch(
  bridge: ClaudeBridge,
  agent: Agent,
  info: ToolBatchInfo,
  next: () => Promise<ToolBatchDecision>,
): Promise<ToolBatchDecision> {
  if (!bridge.mayRun('PostToolBatch', agent)) return next()
  const sourceLine = bridge.envFiles.sourceLine(rootAgent(agent))
  const calls = info.calls.map((c) => {
    const name = bridge.claudeTools.forAgent(agent).name(c.name)
    const input = bridge.claudeTools.forAgent(agent).input(c.name, c.arguments, agent.cwd)
    if (name === 'Bash' && typeof input.command === 'string')
      input.command = withoutSourceLine(input.command, sourceLine)
    return { tool_name: name, tool_input: input, tool_use_id: c.callId, tool_response: c.output }
  })
  const outcome = await bridge.runPoint({
    point: 'PostToolBatch',
    agent,
    fields: { tool_calls: calls },
    signal: AbortSignal.any([info.signal, bridge.state(agent).controller.signal]),
  })
  const context = contextItems('PostToolBatch', outcome.contexts)
  if (outcome.stop || outcome.decision === 'deny') {
    const reason = outcome.stop?.reason || outcome.reason || 'A PostToolBatch hook stopped the loop.'
    bridge.warn(`a PostToolBatch hook stopped the turn: ${reason}`)
    return withContext<ToolBatchDecision>({ action: 'stop', reason }, context)
  }
  return withContext(await next(), context)
}
