// SubagentStart (docs/decisions/0180) on `subagent/start` (emit), detached like SessionStart
// (`start-chains.ts`): matcher subject the child's `agent_type`; its context — JSON `additionalContext`
// or plain stdout — goes into the child, ahead of its task when the task waits for it
// (`awaitSessionStart`). It cannot block; `continue:false` is logged and warned (Codex does not stop a
// subagent on it either). The run is logged in the parent's session next to the subagent call.
// SubagentStop runs on the child's `agent/turn-continuation` (`stop.ts`); this file remembers which
// call started each child so that run is logged next to it too.
import type { Agent } from '@tack/agent'
import type { SubagentStartInfo } from '@tack/subagent'
import type { Bridge } from '../bridge.ts'
import { CODEX_SUBAGENT_TYPE, currentTurn, subagentStartPayload } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'
import type { StartChains } from '../start-chains.ts'

/** Where a child's subagent points are logged: its parent's session, next to the call that started it. */
export interface SubagentOrigin {
  readonly parent: Agent
  readonly callId?: string
}

export interface SubagentOrigins {
  of(child: Agent): SubagentOrigin | undefined
}

/** A child's next turn: the one its task (or a forced continuation) runs in. */
function nextTurn(agent: Agent): number {
  return (currentTurn(agent) ?? 0) + 1
}

export function installSubagentStart(b: Bridge, chains: StartChains): SubagentOrigins {
  const origins = new WeakMap<Agent, SubagentOrigin>()

  b.ctx.on('subagent/start', (parent: Agent, child: Agent, info: SubagentStartInfo) => {
    origins.set(child, { parent, callId: info.callId })
    const hooks = b.registry.runnable()
    const subjects = [CODEX_SUBAGENT_TYPE]
    if (selectHooks(hooks, 'SubagentStart', subjects).length === 0) return
    const signal = AbortSignal.any([b.detached.signal, b.lifetime(child), b.lifetime(parent)])
    chains.start(child, 'SubagentStart', signal, async () => {
      const parentTurn = currentTurn(parent)
      const run = await runPoint(b.runner, hooks, {
        point: 'SubagentStart',
        agent: parent,
        alsoSync: child,
        subjects,
        payload: subagentStartPayload(
          b.payloadContext(child, nextTurn(child)),
          b.payloadContext(parent).transcriptPath,
        ),
        ...(parentTurn !== undefined ? { turn: parentTurn } : {}),
        toolCallId: info.callId,
        signal,
      })
      if (run.merged.stop && !signal.aborted)
        b.warn('a SubagentStart hook returned continue:false; it does not stop the subagent')
      return run.contexts
    })
  })

  return { of: (child) => origins.get(child) }
}
