// Switching an agent's model during its session (80-cli.md §5.4 `/model`, ACP's `model` option): logged
// as `agent/model`, in force from the next request (whose header records the change), and restored when
// the session is resumed, from the last such event in its log.
import type { SessionEvent } from '@tack/session'

declare module '@tack/session' {
  interface SessionEventMap {
    /** The agent's model was switched to `model` (`provider/model`) during the session; requests after it use it, and a resume restores it. */
    'agent/model': { model: string }
  }
}

/** The part of an agent a model switch needs (structurally `Agent`). */
interface SwitchableAgent {
  readonly session: {
    events(): readonly SessionEvent[]
    append(type: 'agent/model', data: { model: string }): unknown
  }
}

/** Per agent object: the switched model, or null when its log holds none (folded once). */
const switched = new WeakMap<object, string | null>()

/** Switches `agent` to `model` from its next request and records the switch in its session. */
export function setAgentModel(agent: SwitchableAgent, model: string): void {
  if (typeof model !== 'string' || !/^[^/\s]+\/\S+$/.test(model))
    throw new RangeError(`model ${JSON.stringify(model)} is not of the form provider/model`)
  agent.session.append('agent/model', { model })
  switched.set(agent, model)
}

/** The model switched to during the session (this run or a resumed log), or undefined. */
export function switchedModelOf(agent: SwitchableAgent): string | undefined {
  let model = switched.get(agent)
  if (model === undefined) {
    model = lastLogged(agent.session.events(), 'agent/model', (d) => (d as { model?: unknown }).model) ?? null
    switched.set(agent, model)
  }
  return model ?? undefined
}

/** The value `pick` takes from the last event of `type` in `events` that has a string value there. */
function lastLogged(
  events: readonly SessionEvent[],
  type: string,
  pick: (data: unknown) => unknown,
): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    if ((events[i].type as string) !== type) continue
    const value = pick(events[i].data)
    if (typeof value === 'string') return value
  }
  return undefined
}
