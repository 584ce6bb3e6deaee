// `tool.call` on `tools/call` and `tool.check` on `tools/pre-execute` (65-mod-host.md requirement 10).
// Tool names and arguments are Claude's (40-hooks.md B8): each tool's own `host.claude` declaration, read
// through @tack/tools' `HostMappingReader` as the Claude bridge reads it; rewritten arguments are
// translated back and schema-checked by the pipeline; both listeners run in the seams' outermost phase,
// so `next()` yields everything tack would have done (rules, hook bridges, the tool itself).
import { isDeepStrictEqual } from 'node:util'
import type { Agent } from '@tack/agent'
import { claudeResponse } from '@tack/claude-protocol'
import {
  HostMappingReader,
  type PreToolDecision,
  type ToolAnswer,
  type ToolExecution,
  type ToolExecutionResult,
} from '@tack/tools'
import { HookFault } from '../faults.ts'
import { firePermissionNotification } from './classic.ts'
import { isObject, type Mapping, textOf } from './shared.ts'

const MOD_SOURCE = { kind: 'plugin', name: 'mods' } as const

function parseArgs(raw: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(raw || '{}')
    return isObject(v) ? v : undefined
  } catch {
    return undefined
  }
}

function contextOf(value: unknown) {
  return typeof value === 'string' && value !== ''
    ? { additionalContext: [{ content: value, source: MOD_SOURCE }] }
    : {}
}

/** The registered tools as Claude sees them; a faulty declaration is warned on the terminal. */
const claudeToolsOf = (m: Mapping) =>
  new HostMappingReader('claude', m.ctx.tools, (message) => m.host.warn(message))

export function installToolCall(m: Mapping): void {
  m.ctx.on(
    'tools/call',
    async (
      exec: ToolExecution,
      next: (exec?: ToolExecution) => Promise<ToolExecutionResult>,
    ): Promise<ToolAnswer> => {
      const agent = exec.agent as Agent | undefined
      const mods = agent && m.host.sessionOf(agent)
      if (!agent || !mods) return next()
      await mods.ready
      const args = parseArgs(exec.rawArguments)
      if (!mods.has('tool.call') || !args) return next()
      const claude = claudeToolsOf(m).forAgent(exec.agent)
      const claudeName = claude.name(exec.name)
      const input = claude.input(exec.name, args, exec.cwd)
      const e = { tool: claudeName, tool_use_id: exec.callId, ...input, ...m.host.agentIdOf(agent) }
      const ran = new WeakMap<object, ToolExecutionResult>()
      let runs = 0
      const core = async (e2: Readonly<Record<string, unknown>>) => {
        // tools/call lets its next() run once (30-tools.md TL-31): a second run would fail the whole call
        if (runs++ > 0)
          throw new HookFault('throw', 'tack runs a tool call once: next() was already called for this call')
        const { tool: _t, tool_use_id: _id, agentId: _a, ...rest } = e2
        const changed = !isDeepStrictEqual(rest, input)
        const back = changed ? claude.arguments(exec.name, rest, exec.cwd, args) : undefined
        if (back && !back.ok) throw new HookFault('throw', back.problem)
        const runArgs = back?.ok ? back.arguments : args
        const result = changed ? await next({ ...exec, rawArguments: JSON.stringify(runArgs) }) : await next()
        const out = {
          result: claudeResponse(claude, exec.name, runArgs, result, exec.cwd),
          text: textOf(result.content),
          ref: exec.callId,
          ...(result.isError ? { isError: true } : {}),
        }
        ran.set(out, result)
        return out
      }
      const answer = await m.host.fire('tool.call', agent, e, core, exec.signal)
      const own = isObject(answer) ? ran.get(answer) : undefined
      if (own) return own
      const a = answer as Record<string, unknown>
      if ('deny' in a)
        return {
          content: String(a.deny),
          isError: true,
          error: { name: 'ModDenied', code: 'DENIED', message: String(a.deny) },
        }
      const text =
        typeof a.text === 'string'
          ? a.text
          : typeof a.result === 'string'
            ? a.result
            : JSON.stringify(a.result)
      return { content: text, isError: a.isError === true, ...contextOf(a.context) }
    },
    // outermost: a mod wraps everything tack does there (the seam's phases, packages/tools/src/seams.ts)
    { phase: 'outermost' },
  )
}

export function installToolCheck(m: Mapping): void {
  m.ctx.on(
    'tools/pre-execute',
    async (exec: ToolExecution, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> => {
      const agent = exec.agent as Agent | undefined
      const mods = agent && m.host.sessionOf(agent)
      if (!agent || !mods) return next()
      await mods.ready
      if (!mods.has('tool.check')) return next()
      const claude = claudeToolsOf(m).forAgent(exec.agent)
      const claudeName = claude.name(exec.name)
      const e = {
        tool: claudeName,
        input: claude.input(exec.name, exec.arguments, exec.cwd),
        tool_use_id: exec.callId,
        ...m.host.agentIdOf(agent),
      }
      const decided = new WeakMap<object, PreToolDecision>()
      const core = async () => {
        const d = await next()
        const out = { decision: d.action, ...(d.action !== 'allow' && d.reason ? { reason: d.reason } : {}) }
        decided.set(out, d)
        return out
      }
      const answer = (await m.host.fire('tool.check', agent, e, core, exec.signal)) as Record<string, unknown>
      const decision = decided.get(answer) ?? modDecision(answer)
      // the ask goes to the user next: Claude Code notifies its hooks of that, so tack does too
      if (decision.action === 'ask' && mods.has('classic.Notification'))
        await firePermissionNotification(m, agent, claudeName)
      return decision
    },
    // outermost: a mod wraps everything tack does there (the seam's phases, packages/tools/src/seams.ts)
    { phase: 'outermost' },
  )
}

/** A mod's own `tool.check` answer as tack's decision. */
function modDecision(answer: Record<string, unknown>): PreToolDecision {
  const reason = typeof answer.reason === 'string' ? answer.reason : undefined
  if (answer.decision === 'deny') return { action: 'deny', reason: reason ?? 'denied by a mod' }
  if (answer.decision === 'ask') return { action: 'ask', ...(reason ? { reason } : {}) }
  return { action: 'allow' }
}
