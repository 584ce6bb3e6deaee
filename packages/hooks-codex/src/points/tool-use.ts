// PreToolUse and PostToolUse (40-hooks.md C2, C3, C5) on `tools/pre-execute` and `tools/post-execute`
// (waterfalls), for every agent's calls (inside subagents the payload carries `agent_id`/`agent_type`).
// Matchers see the Codex-facing name, then its aliases (`apply_patch`, `Edit`, `Write`).
//
// PreToolUse: a deny (`permissionDecision: "deny"` or legacy `block`, each with a reason, or exit 2)
// denies the call with Codex's wording and short-circuits; `allow` with `updatedInput` is read back
// into tack's arguments and returned with the downstream decision as a TL-32 rewrite (a downstream deny
// still wins). Anything else calls `next()` unchanged.
// PostToolUse: a block (`decision: "block"` with a reason, or exit 2) replaces the model-visible output
// with the feedback; `continue:false` does the same with its stop text (the turn is not halted);
// `additionalContext` is added after the results. `tool_input` is the one PreToolUse saw (the patch is
// computed before the body changes the file), or the hook's own rewrite when one was applied.
import { type Agent, type HookContext, loopAgentOf } from '@tack/agent'
import type {
  HostMappingReader,
  PostToolDecision,
  PreToolDecision,
  ToolExecution,
  ToolExecutionResult,
} from '@tack/tools'
import { type Bridge, HOOKS_CODEX_SOURCE } from '../bridge.ts'
import { currentTurn, postToolUsePayload, preToolUsePayload, type ToolFields } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'
import { matcherSubjects } from '@tack/codex-protocol'
import { codexToolsOf } from '../tool-names.ts'
import { blockText } from '@tack/session'

/** Calls whose PostToolUse input is remembered at once, at most (older entries are dropped). */
const MAX_REMEMBERED_INPUTS = 10_000

const POST_STOPPED = 'PostToolUse hook stopped execution'

/** The text the model gets for a denied call, as Codex words it. */
export function deniedMessage(tool: ToolFields, reason: string): string {
  const command = (tool.tool_input as { command?: unknown } | null)?.command
  if ((tool.tool_name === 'Bash' || tool.tool_name === 'apply_patch') && typeof command === 'string') {
    return `Command blocked by PreToolUse hook: ${reason}. Command: ${command}`
  }
  return `Tool call blocked by PreToolUse hook: ${reason}. Tool: ${tool.tool_name}`
}

/**
 * The PostToolUse `tool_response`: the tool's own `host.codex.toResponse` when it declares one (an MCP
 * tool answers Codex's CallToolResult object, docs/decisions/0250-mcp-approval-prompt.md); for Bash the
 * command's own output (the bash tool's `meta.output`, trailing newline included), as Codex sends it
 * (issue 11.6); otherwise the model-visible text. A `toResponse` that throws is warned and the text shown.
 */
function toolResponse(
  codex: HostMappingReader,
  exec: ToolExecution,
  codexName: string,
  result: ToolExecutionResult,
): unknown {
  const text = result.content.map(blockText).join('\n')
  const toResponse = codex.forAgent(exec.agent).mapping(exec.name)?.toResponse
  if (toResponse) {
    try {
      return toResponse(exec.arguments, result, { cwd: exec.cwd, before: undefined })
    } catch (error) {
      codex.warn(
        `tool "${exec.name}": host.codex.toResponse threw (${(error as Error).message}); its text is shown`,
      )
      return text
    }
  }
  const output = (result.meta as { output?: unknown } | undefined)?.output
  if (codexName === 'Bash' && typeof output === 'string') return output
  return text
}

export function installToolUse(b: Bridge): void {
  const codex = codexToolsOf(b)
  const inputs = new Map<string, unknown>()
  const keyOf = (agent: Agent, callId: string) => `${agent.id}\u0000${callId}`
  const remember = (key: string, input: unknown) => {
    inputs.delete(key)
    inputs.set(key, input)
    if (inputs.size > MAX_REMEMBERED_INPUTS) inputs.delete(inputs.keys().next().value as string)
  }
  b.ctx.on('agent/disposed', (agent: Agent) => {
    const prefix = `${agent.id}\u0000`
    for (const key of inputs.keys()) if (key.startsWith(prefix)) inputs.delete(key)
  })

  b.ctx.on(
    'tools/pre-execute',
    async (exec: ToolExecution, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> => {
      const agent = loopAgentOf(exec.agent)
      if (!agent) return next()
      const codexName = codex.forAgent(exec.agent).name(exec.name)
      const subjects = matcherSubjects(codexName)
      const hooks = b.registry.runnable()
      const pre = selectHooks(hooks, 'PreToolUse', subjects)
      if (pre.length === 0 && selectHooks(hooks, 'PostToolUse', subjects).length === 0) return next()
      const key = keyOf(agent, exec.callId)
      const toolInput = await codex.forAgent(exec.agent).inputAsync(exec.name, exec.arguments, exec.cwd)
      remember(key, toolInput)
      if (pre.length === 0) return next()

      const tool: ToolFields = {
        tool_name: codexName,
        tool_use_id: exec.callId,
        tool_input: toolInput,
      }
      const turn = currentTurn(agent)
      const run = await runPoint(b.runner, hooks, {
        point: 'PreToolUse',
        agent,
        subjects,
        payload: preToolUsePayload(b.payloadContext(agent, turn), tool),
        ...(turn !== undefined ? { turn } : {}),
        toolCallId: exec.callId,
        signal: exec.signal,
      })
      const { merged } = run
      if (merged.decision === 'deny') {
        inputs.delete(key)
        return { action: 'deny', reason: deniedMessage(tool, merged.reason ?? 'blocked') }
      }
      if (merged.decision === 'allow' && merged.updatedInput !== undefined) {
        const translated = await codex
          .forAgent(exec.agent)
          .argumentsAsync(exec.name, merged.updatedInput, exec.cwd, exec.arguments)
        if (!translated.ok) {
          b.warn(`PreToolUse updatedInput for ${tool.tool_name} was ignored: ${translated.problem}`)
          return next()
        }
        remember(key, merged.updatedInput)
        const downstream = await next()
        if (downstream.action === 'deny') return downstream
        return { ...downstream, arguments: translated.arguments }
      }
      return next()
    },
    { phase: 'hooks' },
  )

  b.ctx.on(
    'tools/post-execute',
    async (
      exec: ToolExecution,
      result: ToolExecutionResult,
      next: () => Promise<PostToolDecision>,
    ): Promise<PostToolDecision> => {
      const agent = loopAgentOf(exec.agent)
      if (!agent) return next()
      const key = keyOf(agent, exec.callId)
      const remembered = inputs.get(key)
      inputs.delete(key)
      const codexName = codex.forAgent(exec.agent).name(exec.name)
      const subjects = matcherSubjects(codexName)
      const hooks = b.registry.runnable()
      if (selectHooks(hooks, 'PostToolUse', subjects).length === 0) return next()
      const tool: ToolFields = {
        tool_name: codexName,
        tool_use_id: exec.callId,
        tool_input:
          remembered ?? (await codex.forAgent(exec.agent).inputAsync(exec.name, exec.arguments, exec.cwd)),
      }
      const turn = currentTurn(agent)
      const run = await runPoint(b.runner, hooks, {
        point: 'PostToolUse',
        agent,
        subjects,
        payload: postToolUsePayload(
          b.payloadContext(agent, turn),
          tool,
          toolResponse(codex, exec, codexName, result),
        ),
        ...(turn !== undefined ? { turn } : {}),
        toolCallId: exec.callId,
        signal: exec.signal,
      })
      const { merged } = run
      const context: HookContext[] = run.contexts.map((text) => ({
        content: text,
        source: HOOKS_CODEX_SOURCE,
      }))
      const extra = context.length > 0 ? { additionalContext: context } : {}
      const feedback: string[] = []
      if (merged.decision === 'deny' && merged.reason) feedback.push(merged.reason)
      if (merged.stop) {
        b.warn('a PostToolUse hook returned continue:false; the output is replaced but the turn goes on')
        feedback.push(merged.stop.reason || POST_STOPPED)
      }
      if (feedback.length > 0) return { action: 'block', feedback: feedback.join('\n\n'), ...extra }
      const downstream = await next()
      if (context.length === 0) return downstream
      return { ...downstream, additionalContext: [...context, ...(downstream.additionalContext ?? [])] }
    },
  )
}
