// PermissionRequest (claude-code-hook-events.md; protocols.md §A.4) on `tools/permission-request`: an
// `ask` is about to be put to the person (TUI, ACP) or, headless, refused. Payload: `tool_name`,
// `tool_input`, `permission_suggestions` (tack offers none: `[]`), and no `tool_use_id`, as in Claude Code.
// `hookSpecificOutput.decision.behavior: "allow"` runs the call without asking (with `updatedInput`, the
// rewritten input); `"deny"` refuses it with `message`; any deny among the hooks wins; no decision (or a
// failed hook) leaves the question to the approver. Exit 2 is ignored here, as Claude Code ignores it.
import { type Agent, loopAgentOf } from '@tack/agent'
import type { PermissionAsk, PermissionRequestDecision, ToolExecution } from '@tack/tools'
import type { ClaudeBridge } from '../bridge.ts'
import type { HandlerRun } from '../handler-runs.ts'
import { claudeToolSubjects } from '@tack/claude-protocol'
import { toolRequest } from './tool-use.ts'

type Behavior =
  | { readonly behavior: 'allow'; readonly updatedInput?: Readonly<Record<string, unknown>> }
  | { readonly behavior: 'deny'; readonly message?: string }

export async function onPermissionRequest(
  bridge: ClaudeBridge,
  exec: ToolExecution,
  _ask: PermissionAsk,
  next: () => Promise<PermissionRequestDecision>,
): Promise<PermissionRequestDecision> {
  const agent: Agent | undefined = loopAgentOf(exec.agent)
  if (!agent) return next()
  const tool = bridge.claudeTools.forAgent(exec.agent).name(exec.name)
  if (!bridge.mayRun('PermissionRequest', agent, claudeToolSubjects(tool))) return next()
  const req = toolRequest(bridge, exec, agent, tool, 'PermissionRequest', { permission_suggestions: [] })
  const { tool_use_id: _none, ...fields } = req.fields
  const runs: HandlerRun[] = []
  await bridge.runPoint({ ...req, fields, toolCallId: exec.callId }, runs)
  const behaviors = runs.flatMap((r) => {
    const b = behaviorOf(r.output.raw)
    return b ? [b] : []
  })
  const deny = behaviors.find((b) => b.behavior === 'deny')
  if (deny?.behavior === 'deny') {
    return { action: 'deny', reason: deny.message || `A PermissionRequest hook denied the ${tool} call.` }
  }
  const allow = behaviors.findLast((b) => b.behavior === 'allow')
  if (allow?.behavior === 'allow') {
    const back = allow.updatedInput
      ? bridge.claudeTools
          .forAgent(exec.agent)
          .arguments(exec.name, allow.updatedInput, exec.cwd, exec.arguments)
      : undefined
    // An allow whose rewrite cannot be read back must not run the original call unasked: it is refused.
    if (back && !back.ok) return { action: 'deny', reason: back.problem }
    return { action: 'allow', ...(back?.ok ? { arguments: back.arguments } : {}) }
  }
  return next()
}

/** `hookSpecificOutput.decision` of a PermissionRequest hook's JSON, read leniently (wrong type = absent). */
function behaviorOf(raw: Readonly<Record<string, unknown>> | undefined): Behavior | undefined {
  const specific = raw?.hookSpecificOutput as Record<string, unknown> | undefined
  if (!specific || typeof specific !== 'object' || specific.hookEventName !== 'PermissionRequest')
    return undefined
  const decision = specific.decision as Record<string, unknown> | undefined
  if (!decision || typeof decision !== 'object') return undefined
  if (decision.behavior === 'deny')
    return {
      behavior: 'deny',
      ...(typeof decision.message === 'string' ? { message: decision.message } : {}),
    }
  if (decision.behavior !== 'allow') return undefined
  const input = decision.updatedInput
  return input && typeof input === 'object' && !Array.isArray(input)
    ? { behavior: 'allow', updatedInput: input as Record<string, unknown> }
    : { behavior: 'allow' }
}
