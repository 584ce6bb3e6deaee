// SessionStart (40-hooks.md B3, B10): on `agent/session-start` (emit) for top-level agents, detached.
// JSON context or plain stdout is injected; exit-2 stderr and `continue: false` are shown to the user
// (warned and in `hook/result`), since SessionStart cannot block. The chain is remembered so the first
// prompt can wait for it (`awaitSessionStart`).
import type { Agent, SessionStartSource } from '@tack/agent'
import type { ClaudeBridge } from '../bridge.ts'

export function onSessionStart(bridge: ClaudeBridge, agent: Agent, source: SessionStartSource): void {
  if (agent.parent) return // subagents get SubagentStart instead
  const st = bridge.state(agent)
  const signal = st.detachedSignal
  const model = agent.model
  const chain = (async () => {
    const outcome = await bridge.runPoint({
      point: 'SessionStart',
      agent,
      fields: { source, ...(model ? { model } : {}) },
      subjects: [source],
      signal,
    })
    if (signal.aborted) return
    bridge.injectContexts(agent, `SessionStart:${source}`, outcome.contexts, outcome.plainStdout)
    if (outcome.decision === 'deny' && outcome.reason) {
      bridge.warn(`SessionStart hook: ${outcome.reason}`)
    }
    if (outcome.stop) {
      bridge.warn(
        `a SessionStart hook asked to stop (continue: false${outcome.stop.reason ? `: ${outcome.stop.reason}` : ''}); SessionStart cannot stop a session, so this is only logged`,
      )
    }
  })()
  st.pendingStart = bridge.detach(agent, chain, 'SessionStart hooks')
}
