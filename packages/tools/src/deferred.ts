// Deferred tools (spec 55-mcp.md M11): a tool that declares `deferred: true` is registered and
// searchable but not offered to an agent's model until a search tool loads it for that agent. The set
// loaded is folded from the agent's log (`tools/loaded` events), so what the model was shown is what the
// log says and a resumed session sends the same tool list; the request header records the tools, so the
// prompt prefix changes exactly when a tool is loaded.
import type { SessionEvent } from '@tack/session'

declare module '@tack/session' {
  interface SessionEventMap {
    /** Deferred tools loaded for this agent (a tool search found them); they are on its requests from now on. */
    'tools/loaded': { names: string[] }
  }
}

/** The part of an agent its loaded tools are read from (structurally `ToolAgent`). */
export interface LoadingAgent {
  readonly session?: {
    events(): readonly SessionEvent[]
    append(type: 'tools/loaded', data: { names: string[] }): unknown
  }
}

/** Per agent object: the deferred tools loaded so far (folded from its log once, then kept up to date). */
const loadedByAgent = new WeakMap<object, Set<string>>()

const NONE: ReadonlySet<string> = new Set()

/** The deferred tools loaded for `agent`; none without an agent. */
export function loadedTools(agent: LoadingAgent | undefined): ReadonlySet<string> {
  if (!agent) return NONE
  let loaded = loadedByAgent.get(agent)
  if (!loaded) {
    loaded = new Set()
    for (const event of agent.session?.events() ?? []) {
      if ((event.type as string) !== 'tools/loaded') continue
      const names = (event.data as { names?: unknown }).names
      if (Array.isArray(names)) for (const name of names) if (typeof name === 'string') loaded.add(name)
    }
    loadedByAgent.set(agent, loaded)
  }
  return loaded
}

/**
 * Loads deferred tools for `agent` from its next request on, logging the names not loaded before;
 * returns those. A tool search calls it with what it found.
 */
export function loadTools(agent: LoadingAgent, names: readonly string[]): string[] {
  const loaded = loadedTools(agent) as Set<string>
  const added = [...new Set(names)].filter((name) => !loaded.has(name))
  if (added.length === 0) return []
  agent.session?.append('tools/loaded', { names: added })
  for (const name of added) loaded.add(name)
  return added
}
