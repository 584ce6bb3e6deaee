// SessionStart (40-hooks.md C2, C5): on `agent/session-start` (emit) for top-level agents, matcher
// subject the start `source`. The run is detached (A8, `start-chains.ts`); its context — JSON
// `additionalContext` or plain stdout — reaches the agent's first prompt or is injected.
// `continue:false` is logged and warned; SessionStart cannot block. A subagent's start is SubagentStart
// (`subagent.ts`).
import type { Agent, SessionStartSource } from '@tack/agent'
import type { Bridge } from '../bridge.ts'
import { sessionStartPayload } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'
import type { StartChains } from '../start-chains.ts'

export function installSessionStart(b: Bridge, chains: StartChains): void {
  b.ctx.on('agent/session-start', (agent: Agent, source: SessionStartSource) => {
    if (agent.parent) return
    const hooks = b.registry.runnable()
    if (selectHooks(hooks, 'SessionStart', [source]).length === 0) return
    const signal = AbortSignal.any([b.detached.signal, b.lifetime(agent)])
    chains.start(agent, 'SessionStart', signal, async () => {
      const run = await runPoint(b.runner, hooks, {
        point: 'SessionStart',
        agent,
        subjects: [source],
        payload: sessionStartPayload(b.payloadContext(agent), source),
        signal,
      })
      if (run.merged.stop && !signal.aborted)
        b.warn('a SessionStart hook returned continue:false; SessionStart cannot stop a session')
      return run.contexts
    })
  })
}
