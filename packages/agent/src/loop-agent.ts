// Tools see the calling agent as `@tack/tools`' narrow `ToolAgent` (that package does not depend on this
// one). Plugins on the tool seams that need the whole agent — the hook bridges inject context and read
// its log — recover it here; a caller that is no loop agent (a test stub, a call without an agent) gives
// undefined, and such plugins then leave the call alone.
import type { ToolAgent } from '@tack/tools'
import type { Agent } from './types.ts'

export function loopAgentOf(agent: ToolAgent | undefined): Agent | undefined {
  const a = agent as Partial<Agent> | undefined
  return typeof a?.send === 'function' && typeof a.inject === 'function' && 'status' in a
    ? (a as Agent)
    : undefined
}
