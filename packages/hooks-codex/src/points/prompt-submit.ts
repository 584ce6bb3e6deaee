// UserPromptSubmit (40-hooks.md C2, C5) on `agent/prompt-submit` (waterfall), for the user's prompts
// to top-level agents (a subagent's task comes from its parent's model, not from the user). A block
// (`decision: "block"` with a non-empty reason, or exit 2 with stderr) blocks the prompt and
// short-circuits; `continue:false` blocks it too, with its `stopReason`. Context — JSON
// `additionalContext` or plain stdout — is added even when the prompt is blocked; without a block the
// listener calls `next()` and folds its context onto the downstream decision (B5).
//
// With `awaitSessionStart`, the agent's pending SessionStart run (a subagent's: its SubagentStart run) is
// awaited first and its context is placed ahead of the prompt (`leadingContext`), before
// UserPromptSubmit's, in Codex's order.
import {
  type Agent,
  CANCELLED_BEFORE_ADMISSION,
  type HookContext,
  type Prompt,
  type PromptDecision,
} from '@tack/agent'
import { type Bridge, HOOKS_CODEX_SOURCE } from '../bridge.ts'
import { contentText, currentTurn, userPromptSubmitPayload } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'
import type { StartChains } from '../start-chains.ts'
import { turnSignalOf } from '../turn-signal.ts'

const STOPPED = 'A UserPromptSubmit hook stopped processing this prompt.'

export function installPromptSubmit(b: Bridge, starts: StartChains): void {
  b.ctx.on(
    'agent/prompt-submit',
    async (agent: Agent, prompt: Prompt, next: () => Promise<PromptDecision>): Promise<PromptDecision> => {
      const signal = turnSignalOf(b, agent)
      const started = b.config.awaitSessionStart ? await starts.claim(agent) : []
      const leading: HookContext[] = started.map((text) => ({ content: text, source: HOOKS_CODEX_SOURCE }))
      if (signal.aborted) return cancelled(agent, leading)
      const decision = await decide(agent, prompt, next, signal)
      if (leading.length === 0) return decision
      return { ...decision, leadingContext: [...leading, ...(decision.leadingContext ?? [])] }
    },
    { phase: 'hooks' },
  )

  async function decide(
    agent: Agent,
    prompt: Prompt,
    next: () => Promise<PromptDecision>,
    signal: AbortSignal,
  ): Promise<PromptDecision> {
    if (agent.parent || prompt.source.kind !== 'user') return next()
    const hooks = b.registry.runnable()
    if (selectHooks(hooks, 'UserPromptSubmit', []).length === 0) return next()
    const turn = currentTurn(agent)
    const run = await runPoint(b.runner, hooks, {
      point: 'UserPromptSubmit',
      agent,
      subjects: [],
      payload: userPromptSubmitPayload(b.payloadContext(agent, turn), contentText(prompt.content)),
      ...(turn !== undefined ? { turn } : {}),
      signal,
    })
    if (signal.aborted) return { action: 'block', reason: CANCELLED_BEFORE_ADMISSION }
    const context: HookContext[] = run.contexts.map((text) => ({
      content: text,
      source: HOOKS_CODEX_SOURCE,
    }))
    const extra = context.length > 0 ? { additionalContext: context } : {}
    if (run.merged.decision === 'deny') {
      return {
        action: 'block',
        reason: run.merged.reason ?? 'Blocked by a UserPromptSubmit hook.',
        ...extra,
      }
    }
    if (run.merged.stop) return { action: 'block', reason: run.merged.stop.reason || STOPPED, ...extra }
    const downstream = await next()
    if (context.length === 0) return downstream
    return { ...downstream, additionalContext: [...context, ...(downstream.additionalContext ?? [])] }
  }

  /**
   * The loop has stopped waiting (AL-23): run nothing more and call no later listener. SessionStart
   * context claimed for this prompt is injected instead, as it would have been without the wait.
   */
  function cancelled(agent: Agent, leading: readonly HookContext[]): PromptDecision {
    for (const item of leading) {
      try {
        agent.inject(item)
      } catch {
        // A disposed agent takes nothing more.
      }
    }
    return { action: 'block', reason: CANCELLED_BEFORE_ADMISSION }
  }
}
