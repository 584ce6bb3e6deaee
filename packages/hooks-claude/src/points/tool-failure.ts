// PostToolUseFailure (claude-code-hook-events.md) on `tools/post-execute`, instead of PostToolUse, for a
// call whose body ran and failed (bash exit ≠ 0, a timeout, an edit that did not apply, an interrupt).
// Calls refused before running (invalid arguments, a denial) never reach post-execute, so they fire no
// hook, as in Claude Code. The hook cannot change the result: `additionalContext` becomes context
// `PostToolUseFailure:<Tool> hook additional context: …`; a block (exit 2) becomes a blocking-error
// context naming the command and its stderr.
import type { Agent } from '@tack/agent'
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@tack/tools'
import type { ClaudeBridge } from '../bridge.ts'
import { blockingMessages, type HandlerRun } from '../handler-runs.ts'
import { HOOKS_CLAUDE_SOURCE } from '../protocol.ts'
import { claudeToolSubjects } from '@tack/claude-protocol'
import { contextItems, withContext } from './context.ts'
import { toolRequest } from './tool-use.ts'
import { blockText } from '@tack/session'

export async function onPostToolUseFailure(
  bridge: ClaudeBridge,
  exec: ToolExecution,
  result: ToolExecutionResult,
  agent: Agent,
  tool: string,
  startedAt: number | undefined,
  next: () => Promise<PostToolDecision>,
): Promise<PostToolDecision> {
  if (!bridge.mayRun('PostToolUseFailure', agent, claudeToolSubjects(tool))) return next()
  const interrupted = result.error?.code === 'ABORTED' || exec.signal.aborted
  const request = toolRequest(bridge, exec, agent, tool, 'PostToolUseFailure', {
    error: result.content.map(blockText).join('\n'),
    is_interrupt: interrupted,
    ...(startedAt !== undefined ? { duration_ms: Date.now() - startedAt } : {}),
  })
  // An interrupted call's own signal (and the turn's) is already aborted: running under it would skip
  // the very hook that reports the interrupt. Only the agent's disposal cuts this run.
  const req = interrupted ? { ...request, signal: bridge.state(agent).controller.signal } : request
  const runs: HandlerRun[] = []
  const outcome = await bridge.runPoint(req, runs)
  const label = `PostToolUseFailure:${tool}`
  const blocking =
    outcome.decision === 'deny'
      ? blockingMessages(runs, outcome.reason).map((m) => ({
          content: `${label} hook blocking error from command: ${m}`,
          source: HOOKS_CLAUDE_SOURCE,
        }))
      : []
  if (outcome.stop)
    bridge.warn(`a ${label} hook returned continue: false; tack cannot halt a turn from a tool hook`)
  return withContext(await next(), [...contextItems(label, outcome.contexts), ...blocking])
}
