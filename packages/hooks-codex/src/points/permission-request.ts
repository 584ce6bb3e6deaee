// PermissionRequest (docs/decisions/0181-codex-permission-and-compaction-points.md) on
// `tools/permission-request` (waterfall): a call is about to be put to the approver (the TUI, an ACP
// client, or none in a headless run, where it is denied). Matcher subject: the Codex tool name, then its
// aliases, as PreToolUse. Any `deny` wins and denies the call with its message; an `allow` answers the
// question without asking — it still calls `next()`, so a later listener's deny stands. No decision,
// a failed hook or a voided decision (`updatedInput`, `interrupt`, `continue:false`, …) leaves the
// question to the approver. Exit 2 is not a decision here.
import { loopAgentOf } from '@tack/agent'
import type { PermissionAsk, PermissionRequestDecision, ToolExecution } from '@tack/tools'
import type { Bridge } from '../bridge.ts'
import { currentTurn, permissionRequestPayload } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'
import { matcherSubjects } from '@tack/codex-protocol'
import { codexToolsOf } from '../tool-names.ts'

const DENIED = 'A PermissionRequest hook denied this call.'

export function installPermissionRequest(b: Bridge): void {
  const codex = codexToolsOf(b)
  b.ctx.on(
    'tools/permission-request',
    async (
      exec: ToolExecution,
      _ask: PermissionAsk,
      next: () => Promise<PermissionRequestDecision>,
    ): Promise<PermissionRequestDecision> => {
      const agent = loopAgentOf(exec.agent)
      if (!agent) return next()
      const codexName = codex.forAgent(exec.agent).name(exec.name)
      const subjects = matcherSubjects(codexName)
      const hooks = b.registry.runnable()
      if (selectHooks(hooks, 'PermissionRequest', subjects).length === 0) return next()
      const turn = currentTurn(agent)
      const toolInput = await codex.forAgent(exec.agent).inputAsync(exec.name, exec.arguments, exec.cwd)
      const run = await runPoint(b.runner, hooks, {
        point: 'PermissionRequest',
        agent,
        subjects,
        payload: permissionRequestPayload(b.payloadContext(agent, turn), {
          tool_name: codexName,
          tool_input: toolInput,
        }),
        ...(turn !== undefined ? { turn } : {}),
        toolCallId: exec.callId,
        signal: exec.signal,
      })
      const { merged } = run
      if (merged.decision === 'deny') return { action: 'deny', reason: merged.reason || DENIED }
      if (merged.decision !== 'allow') return next()
      const downstream = await next()
      if (downstream.action === 'deny') return downstream
      return downstream.action === 'allow' ? downstream : { action: 'allow' }
    },
  )
}
