// PreToolUse and PostToolUse (40-hooks.md B3, B5, B6) on `tools/pre-execute` and `tools/post-execute`.
// Calls without an agent (no session to log to or transcript to show) run no hooks.
//
// PreToolUse: `continue: false` and deny/block/exit 2 deny the call (the reason goes to the model) without
// asking the rest of the chain. Otherwise `next()` runs — with the rewritten arguments when a hook gave
// `updatedInput`, so later listeners (permission rules) judge what will actually run — and:
//   downstream deny  → stands (gaining the hooks' context);
//   hook ask         → ask with the hook's reason;
//   hook allow       → allow: a downstream ask (the mode's prompt) is skipped, as Claude Code's allow skips it;
//   no decision      → the downstream decision as it is;
// each carrying the rewrite (TL-32) and the hooks' context.
//
// PostToolUse: `continue: false` and block/exit 2 block the result (the model sees the tool's output and
// the reason); otherwise context folds onto the downstream decision, and an MCP tool's output is replaced
// by a hook's `updatedMCPToolOutput` (mcp-output.ts). A result that is an error (the call
// failed while running) goes to PostToolUseFailure instead (tool-failure.ts).
//
// A point nothing may run at (no handler whose matcher takes the tool, no `hooks-claude/point` listener)
// is skipped before its payload is built: the common no-hooks call reads no file back for
// `tool_response` and no file ahead for `originalFile` (docs/decisions/0067-long-session-cost.md).
import { type Agent, loopAgentOf } from '@tack/agent'
import type { MergedHookOutcome } from '@tack/hook-protocol'
import type { PostToolDecision, PreToolDecision, ToolExecution, ToolExecutionResult } from '@tack/tools'
import type { ClaudeBridge, PointRequest } from '../bridge.ts'
import { claudeResponse, claudeToolSubjects } from '@tack/claude-protocol'
import { withoutSourceLine } from '../env-file.ts'
import { rootAgent } from '../payload.ts'
import { contextItems, withContext } from './context.ts'
import { currentTodos } from '../claude-fields.ts'
import { onPostToolUseFailure } from './tool-failure.ts'
import type { HandlerRun } from '../handler-runs.ts'
import { isMcpTool, updatedMcpOutput } from './mcp-output.ts'
import { blockText } from '@tack/session'

/** The call's tool under its declared Claude Code name (`host.claude`), else its own. */
const claudeNameOf = (bridge: ClaudeBridge, exec: ToolExecution): string =>
  bridge.claudeTools.forAgent(exec.agent).name(exec.name)

/** The call's arguments without the CLAUDE_ENV_FILE source line tack puts before a Bash command. */
function argumentsAsCalled(bridge: ClaudeBridge, exec: ToolExecution, agent: Agent, tool: string): unknown {
  const args = exec.arguments as { command?: unknown } | undefined
  if (tool !== 'Bash' || typeof args?.command !== 'string') return exec.arguments
  return { ...args, command: withoutSourceLine(args.command, bridge.envFiles.sourceLine(rootAgent(agent))) }
}

export function toolRequest(
  bridge: ClaudeBridge,
  exec: ToolExecution,
  agent: Agent,
  tool: string,
  point: 'PreToolUse' | 'PermissionRequest' | 'PostToolUse' | 'PostToolUseFailure',
  extra: Record<string, unknown> = {},
): PointRequest {
  const input = bridge.claudeTools
    .forAgent(exec.agent)
    .input(exec.name, argumentsAsCalled(bridge, exec, agent, tool), exec.cwd)
  const subjects = claudeToolSubjects(tool)
  return {
    point,
    agent,
    fields: { tool_name: tool, tool_input: input, tool_use_id: exec.callId, ...extra },
    subjects,
    tool: { names: subjects, input },
    toolCallId: exec.callId,
    signal: AbortSignal.any([exec.signal, bridge.state(agent).turnSignal(agent)]),
  }
}

const stopped = (point: string, outcome: MergedHookOutcome) =>
  outcome.stop?.reason || `A ${point} hook stopped processing (continue: false).`

export async function onPreToolUse(
  bridge: ClaudeBridge,
  exec: ToolExecution,
  next: (replacement?: ToolExecution) => Promise<PreToolDecision>,
): Promise<PreToolDecision> {
  const agent = loopAgentOf(exec.agent)
  if (!agent) return next()
  const tool = claudeNameOf(bridge, exec)
  const decision = await decidePreToolUse(bridge, exec, agent, tool, next)
  if (decision.action === 'deny') return decision
  // What PostToolUse reports about the call (`duration_ms`, Write/Edit `originalFile`): taken after
  // every PreToolUse decision, so a rewritten path is the one snapshotted — and the file only read
  // when a PostToolUse hook may see it.
  const args = (decision.arguments ?? exec.arguments) as Record<string, unknown> | undefined
  const post = bridge.mayRun('PostToolUse', agent, claudeToolSubjects(tool))
  const todos = post && tool === 'TodoWrite' ? currentTodos(agent.session) : undefined
  const filePath = post
    ? bridge.claudeTools.forAgent(exec.agent).input(exec.name, args, exec.cwd).file_path
    : undefined
  bridge.callStarts.record(exec.callId, tool, filePath, exec.cwd, todos)
  // A Bash call sources what SessionStart hooks wrote to CLAUDE_ENV_FILE (issue 11.4).
  const line = tool === 'Bash' ? bridge.envFiles.sourceLine(rootAgent(agent)) : undefined
  if (!line || typeof args?.command !== 'string') return decision
  return { ...decision, arguments: { ...args, command: `${line}${args.command}` } }
}

async function decidePreToolUse(
  bridge: ClaudeBridge,
  exec: ToolExecution,
  agent: Agent,
  tool: string,
  next: (replacement?: ToolExecution) => Promise<PreToolDecision>,
): Promise<PreToolDecision> {
  if (!bridge.mayRun('PreToolUse', agent, claudeToolSubjects(tool))) return next()
  const outcome = await bridge.runPoint(toolRequest(bridge, exec, agent, tool, 'PreToolUse'))
  const context = contextItems(`PreToolUse:${tool}`, outcome.contexts)
  if (outcome.stop) {
    bridge.warn(
      `a PreToolUse hook returned continue: false; the ${tool} call is denied, but the turn goes on (tack cannot halt a turn from a tool hook)`,
    )
    return withContext<PreToolDecision>({ action: 'deny', reason: stopped('PreToolUse', outcome) }, context)
  }
  if (outcome.decision === 'deny') {
    const reason = `PreToolUse:${tool} hook error: ${outcome.reason || 'blocked by a PreToolUse hook'}`
    return withContext<PreToolDecision>({ action: 'deny', reason }, context)
  }
  const back = outcome.updatedInput
    ? bridge.claudeTools
        .forAgent(exec.agent)
        .arguments(exec.name, outcome.updatedInput, exec.cwd, exec.arguments)
    : undefined
  // A rewrite the tool cannot read back must not run as the original call: the call is denied.
  if (back && !back.ok) {
    bridge.warn(`a PreToolUse hook's updatedInput for ${tool} could not be read back: ${back.problem}`)
    return withContext<PreToolDecision>({ action: 'deny', reason: back.problem }, context)
  }
  const rewrite = back?.ok ? back.arguments : undefined
  const downstream = await (rewrite ? next({ ...exec, arguments: rewrite }) : next())
  if (downstream.action === 'deny') return withContext(downstream, context)
  const args = rewrite ?? downstream.arguments
  const withArgs = args !== undefined ? { arguments: args } : {}
  const carried = downstream.additionalContext ? { additionalContext: downstream.additionalContext } : {}
  switch (outcome.decision) {
    case 'ask': {
      const reason = outcome.reason ?? (downstream.action === 'ask' ? downstream.reason : undefined)
      return withContext<PreToolDecision>(
        { action: 'ask', ...(reason ? { reason } : {}), ...withArgs, ...carried },
        context,
      )
    }
    case 'allow': {
      // A downstream allow keeps what else it carries (e.g. the approval a permission rule attaches).
      if (downstream.action === 'allow')
        return withContext<PreToolDecision>({ ...downstream, ...withArgs }, context)
      return withContext<PreToolDecision>({ action: 'allow', ...withArgs, ...carried }, context)
    }
    case undefined:
      return withContext(rewrite ? { ...downstream, arguments: rewrite } : downstream, context)
    default:
      return outcome.decision satisfies never
  }
}

export async function onPostToolUse(
  bridge: ClaudeBridge,
  exec: ToolExecution,
  result: ToolExecutionResult,
  next: () => Promise<PostToolDecision>,
): Promise<PostToolDecision> {
  const start = bridge.callStarts.take(exec.callId)
  const agent = loopAgentOf(exec.agent)
  if (!agent) return next()
  const tool = claudeNameOf(bridge, exec)
  // A call that failed while running gets PostToolUseFailure instead (tool-failure.ts).
  if (result.isError) return onPostToolUseFailure(bridge, exec, result, agent, tool, start?.startedAt, next)
  if (!bridge.mayRun('PostToolUse', agent, claudeToolSubjects(tool))) return next()
  const before = {
    ...(start && 'originalFile' in start ? { originalFile: start.originalFile } : {}),
    ...(start?.previousTodos ? { previousTodos: start.previousTodos } : {}),
  }
  const args = argumentsAsCalled(bridge, exec, agent, tool)
  const response = claudeResponse(
    bridge.claudeTools.forAgent(exec.agent),
    exec.name,
    args,
    result,
    exec.cwd,
    before,
  )
  const req = toolRequest(bridge, exec, agent, tool, 'PostToolUse', {
    tool_response: response,
    ...(start ? { duration_ms: Date.now() - start.startedAt } : {}),
  })
  const runs: HandlerRun[] = []
  const outcome = await bridge.runPoint(req, runs)
  const context = contextItems(`PostToolUse:${tool}`, outcome.contexts)
  const output = result.content.map(blockText).join('\n')
  const replaced = updatedMcpOutput(runs)
  if (replaced.found && !isMcpTool(exec.name))
    bridge.warnOnce(
      `mcp-output:${tool}`,
      `a PostToolUse hook gave updatedMCPToolOutput for ${tool}, which is not an MCP tool; ignored`,
    )
  const blocked = (reason: string): PostToolDecision =>
    withContext<PostToolDecision>(
      { action: 'block', feedback: output ? `${output}\n\n${reason}` : reason },
      context,
    )
  if (outcome.stop) {
    bridge.warn(
      `a PostToolUse hook returned continue: false; the ${tool} result is blocked, but the turn goes on (tack cannot halt a turn from a tool hook)`,
    )
    return blocked(stopped('PostToolUse', outcome))
  }
  if (outcome.decision === 'deny') {
    return blocked(`PostToolUse:${tool} hook error: ${outcome.reason || 'blocked by a PostToolUse hook'}`)
  }
  const downstream = await next()
  // An MCP tool's output replaced by the hook is what the model sees, unless a later listener blocks it.
  if (replaced.found && isMcpTool(exec.name) && downstream.action === 'accept')
    return withContext<PostToolDecision>({ ...downstream, content: replaced.text }, context)
  return withContext(downstream, context)
}
