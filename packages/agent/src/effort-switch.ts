// Switching an agent's reasoning effort during its session (85-skills-and-commands.md I3: `/effort`,
// `--effort` on a resumed session, ACP's `effort` option): logged as `agent/effort`, in force from the next
// request (whose header records `reasoningEffort`), and restored on resume from the last such event —
// the way `agent/model` works (model-switch.ts). `default` clears it: the provider's own default applies.
import { isReasoningEffort, type ReasoningEffort, type SessionEvent } from '@tack/session'
import { lastLogged } from './model-switch.ts'

/** What `/effort` accepts: a level, or `default` for none (the provider decides). */
export type EffortChoice = ReasoningEffort | 'default'

declare module '@tack/session' {
  interface SessionEventMap {
    /** The agent's reasoning effort was switched (`default`: none is sent); requests after it use it, and a resume restores it. */
    'agent/effort': { effort: EffortChoice }
  }
}

interface EffortAgent {
  readonly session: {
    events(): readonly SessionEvent[]
    append(type: 'agent/effort', data: { effort: EffortChoice }): unknown
  }
}

/** Per agent object: the switched effort, or null when its log holds none (folded once). */
const switched = new WeakMap<object, EffortChoice | null>()

export function isEffortChoice(value: unknown): value is EffortChoice {
  return value === 'default' || isReasoningEffort(value)
}

/** Switches `agent`'s effort from its next request and records the switch in its session. */
export function setAgentEffort(agent: EffortAgent, effort: EffortChoice): void {
  if (!isEffortChoice(effort))
    throw new RangeError(`effort ${JSON.stringify(effort)} is not low, medium, high or default`)
  agent.session.append('agent/effort', { effort })
  switched.set(agent, effort)
}

/** The effort switched to during the session (this run or a resumed log), or undefined when never switched. */
export function switchedEffortOf(agent: EffortAgent): EffortChoice | undefined {
  let effort = switched.get(agent)
  if (effort === undefined) {
    effort =
      lastLogged(agent.session.events(), 'agent/effort', (d) => {
        const value = (d as { effort?: unknown }).effort
        return isEffortChoice(value) ? value : undefined
      }) ?? null
    switched.set(agent, effort)
  }
  return effort ?? undefined
}

/** The effort `agent`'s next request carries: a switch, else the one it was created with; undefined: none. */
export function effortOf(
  agent: EffortAgent & {
    readonly options: { readonly config?: { readonly reasoningEffort?: ReasoningEffort } }
  },
): ReasoningEffort | undefined {
  const effort = switchedEffortOf(agent)
  if (effort === undefined) return agent.options.config?.reasoningEffort
  return effort === 'default' ? undefined : effort
}
