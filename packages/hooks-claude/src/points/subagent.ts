// SubagentStart and SubagentStop (40-hooks.md B3, B10) on `subagent/start` and `subagent/end` (emit),
// detached. The matcher subject is the agent type (`general-purpose`: tack has one kind). SubagentStart
// context goes into the child, whose first prompt waits for the chain; SubagentStop only observes. Both
// are logged in the parent's session, next to the subagent tool call they belong to.
import type { Agent } from '@tack/agent'
import type { SubagentEndInfo, SubagentStartInfo } from '@tack/subagent'
import type { ClaudeBridge } from '../bridge.ts'
import { lastAssistantText } from '../payload.ts'
import { SUBAGENT_TYPE } from '../protocol.ts'

export function onSubagentStart(
  bridge: ClaudeBridge,
  parent: Agent,
  child: Agent,
  info: SubagentStartInfo,
): void {
  const st = bridge.state(child)
  const signal = st.detachedSignal
  const chain = (async () => {
    const outcome = await bridge.runPoint({
      point: 'SubagentStart',
      agent: parent,
      fields: { agent_id: child.id, agent_type: SUBAGENT_TYPE },
      subjects: [SUBAGENT_TYPE],
      toolCallId: info.callId,
      signal,
      onAsync: (output) => {
        if (output.additionalContext)
          bridge.injectContexts(child, 'SubagentStart', [output.additionalContext], [])
      },
    })
    if (signal.aborted) return
    bridge.injectContexts(child, 'SubagentStart', outcome.contexts, [])
    if (outcome.decision === 'deny' && outcome.reason) bridge.warn(`SubagentStart hook: ${outcome.reason}`)
  })()
  st.pendingStart = bridge.detach(child, chain, 'SubagentStart hooks')
}

export function onSubagentEnd(
  bridge: ClaudeBridge,
  parent: Agent,
  child: Agent,
  info: SubagentEndInfo,
): void {
  const st = bridge.state(parent)
  const last = info.output ?? lastAssistantText(child.session.events())
  const chain = bridge.runPoint({
    point: 'SubagentStop',
    agent: parent,
    fields: {
      agent_id: child.id,
      agent_type: SUBAGENT_TYPE,
      stop_hook_active: false,
      agent_transcript_path: bridge.transcriptPath(child),
      ...(last !== undefined ? { last_assistant_message: last } : {}),
    },
    subjects: [SUBAGENT_TYPE],
    toolCallId: info.callId,
    alsoSync: child,
    signal: st.detachedSignal,
    onAsync: () => {},
  })
  bridge.detach(parent, chain, 'SubagentStop hooks')
}
