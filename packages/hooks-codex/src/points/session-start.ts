// SessionStart (40-hooks.md C2, C5): on `agent/session-start` (emit) for top-level agents, matcher
// subject the start `source`. The run is detached (A8): tracked by the bridge's `DetachedRuns` (drained
// on plugin dispose) and by `ctx.agents.trackDetached` (drained on agent dispose, which also aborts
// it). Its context — JSON `additionalContext` or plain stdout — is injected into the agent unless the
// run was aborted meanwhile. `continue:false` is logged and warned; SessionStart cannot block.
// Subagents are Codex's SubagentStart, which this bridge does not run.
import type { Agent, SessionStartSource } from '@tack/agent'
import { type Bridge, HOOKS_CODEX_SOURCE } from '../bridge.ts'
import { sessionStartPayload } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'

export interface SessionStartPoint {
  /** The agent's SessionStart chain while it runs (never rejects), else undefined. */
  pending(agent: Agent): Promise<void> | undefined
  /**
   * Waits for the agent's pending SessionStart chain and takes its context, which then is not injected:
   * the caller (the first prompt) places it ahead of the prompt, where Codex puts it (issue 11.6).
   */
  claim(agent: Agent): Promise<readonly string[]>
}

export function installSessionStart(b: Bridge): SessionStartPoint {
  const pending = new Map<Agent, Promise<void>>()
  /** Agents whose first prompt waits for the chain, and the context handed to it. */
  const claimed = new Map<Agent, string[]>()

  b.ctx.on('agent/session-start', (agent: Agent, source: SessionStartSource) => {
    if (agent.parent) return
    const hooks = b.registry.runnable()
    if (selectHooks(hooks, 'SessionStart', [source]).length === 0) return
    const signal = AbortSignal.any([b.detached.signal, b.lifetime(agent)])
    const chain = (async () => {
      const run = await runPoint(b.runner, hooks, {
        point: 'SessionStart',
        agent,
        subjects: [source],
        payload: sessionStartPayload(b.payloadContext(agent), source),
        signal,
      })
      if (signal.aborted) return
      if (run.merged.stop)
        b.warn('a SessionStart hook returned continue:false; SessionStart cannot stop a session')
      const waiting = claimed.get(agent)
      if (waiting) {
        waiting.push(...run.contexts)
        return
      }
      for (const text of run.contexts) {
        try {
          agent.inject({ content: text, source: HOOKS_CODEX_SOURCE })
        } catch (error) {
          b.warn(
            `SessionStart context not injected: ${error instanceof Error ? error.message : String(error)}`,
          )
        }
      }
    })().catch((error: unknown) => {
      b.warn(`SessionStart hooks failed: ${error instanceof Error ? error.message : String(error)}`)
    })
    pending.set(agent, chain)
    void chain.then(() => {
      if (pending.get(agent) === chain) pending.delete(agent)
    })
    b.detached.track(chain)
    b.ctx.agents.trackDetached(agent, chain)
  })

  return {
    pending: (agent) => pending.get(agent),
    async claim(agent) {
      const chain = pending.get(agent)
      if (!chain) return []
      const taken: string[] = []
      claimed.set(agent, taken)
      try {
        await chain
      } finally {
        claimed.delete(agent)
      }
      return taken
    },
  }
}
