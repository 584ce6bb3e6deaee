// The detached start runs (A8) of SessionStart and SubagentStart share one life: the run is tracked by
// the bridge's `DetachedRuns` (drained on plugin dispose) and by `ctx.agents.trackDetached` (drained on
// agent dispose, which also aborts it); its context goes to the agent's first prompt when that prompt
// waits for it (`awaitSessionStart`, placed ahead of the prompt as Codex orders it), else it is
// injected when the run ends — unless the run was aborted meanwhile.
import type { Agent } from '@tack/agent'
import { type Bridge, HOOKS_CODEX_SOURCE } from './bridge.ts'

export interface StartChains {
  /** Starts `agent`'s start run: `run` resolves to the context it produced. */
  start(agent: Agent, label: string, signal: AbortSignal, run: () => Promise<readonly string[]>): void
  /** The agent's start chain while it runs (never rejects), else undefined. */
  pending(agent: Agent): Promise<void> | undefined
  /**
   * Waits for the agent's pending start chain and takes its context, which then is not injected: the
   * caller (the first prompt) places it ahead of the prompt, where Codex puts it.
   */
  claim(agent: Agent): Promise<readonly string[]>
}

export function createStartChains(b: Bridge): StartChains {
  const pending = new Map<Agent, Promise<void>>()
  /** Agents whose first prompt waits for the chain, and the context handed to it. */
  const claimed = new Map<Agent, string[]>()

  return {
    start(agent, label, signal, run) {
      const chain = (async () => {
        const contexts = await run()
        if (signal.aborted) return
        const waiting = claimed.get(agent)
        if (waiting) {
          waiting.push(...contexts)
          return
        }
        for (const text of contexts) {
          try {
            agent.inject({ content: text, source: HOOKS_CODEX_SOURCE })
          } catch (error) {
            b.warn(`${label} context not injected: ${error instanceof Error ? error.message : String(error)}`)
          }
        }
      })().catch((error: unknown) => {
        b.warn(`${label} hooks failed: ${error instanceof Error ? error.message : String(error)}`)
      })
      pending.set(agent, chain)
      void chain.then(() => {
        if (pending.get(agent) === chain) pending.delete(agent)
      })
      b.detached.track(chain)
      b.ctx.agents.trackDetached(agent, chain)
    },
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
