// A per-agent override a tool's body asks for: one plugin registers the tool, another (which may run
// without it) answers for its own agents with something the body uses instead of its local default —
// an ACP client's file system for the fs tools (tool-fs backend.ts), its terminal for bash (tool-bash
// runner.ts). Module-wide, because the two plugins share no context; resolvers answer only for their
// own agents, so kernels sharing the module never see each other's overrides.
import type { ToolAgent } from './types.ts'

export interface AgentOverrides<T> {
  /** Installs `resolve`; the returned function removes it (call it when the installing plugin stops). */
  use(resolve: (agent: ToolAgent) => T | undefined): () => void
  /** The override for this call's agent, or `undefined` for the body's local default. */
  of(agent: ToolAgent | undefined): T | undefined
}

export function agentOverrides<T>(): AgentOverrides<T> {
  const resolvers = new Set<(agent: ToolAgent) => T | undefined>()
  return {
    use(resolve) {
      resolvers.add(resolve)
      return () => {
        resolvers.delete(resolve)
      }
    },
    of(agent) {
      if (!agent) return undefined
      for (const resolve of resolvers) {
        const found = resolve(agent)
        if (found) return found
      }
      return undefined
    },
  }
}
