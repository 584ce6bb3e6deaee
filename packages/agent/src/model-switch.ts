// Switching an agent's model during its session (80-cli.md §5.4 `/model`, ACP's `model` option): logged
// as `agent/model`, in force from the next request (whose header records the change), and restored when
// the session is resumed, from the last such event in its log.
import { emitSafely, waterfall } from '@tack/kernel'
import type { SessionEvent } from '@tack/session'
import type { Context } from 'cordis'
import { errorMessage } from './errors.ts'
import type { ModelChange, ModelSwitchDecision, ModelSwitchSource } from './seams.ts'
import type { Agent } from './types.ts'

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
    model =
      lastLogged(agent.session.events(), 'agent/model', (d) => {
        const value = (d as { model?: unknown }).model
        return typeof value === 'string' ? value : undefined
      }) ?? null
    switched.set(agent, model)
  }
  return model ?? undefined
}

/** What `pick` takes from the last event of `type` in `events` it answers for (undefined: look further back). */
export function lastLogged<T>(
  events: readonly SessionEvent[],
  type: string,
  pick: (data: unknown) => T | undefined,
): T | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    if ((events[i].type as string) !== type) continue
    const value = pick(events[i].data)
    if (value !== undefined) return value
  }
  return undefined
}

/**
 * Switches `agent` to `model` as a person or client asks for it (`/model`, ACP's model option): raises
 * `agent/model-switch` first — a `deny` keeps the model — then logs the switch and emits
 * `agent/model-switched`. A listener that throws or answers something else keeps the model too (fails
 * closed, as a throwing waterfall listener does elsewhere), with the fault as the reason.
 */
export async function switchAgentModel(
  ctx: Context,
  agent: Agent,
  model: string,
  source: ModelSwitchSource,
  /** The model in force before, when `agent.model` already says the new one (a resume's `--model`). */
  from: string = agent.model ?? '',
): Promise<ModelSwitchDecision> {
  const change: ModelChange = Object.freeze({ from, to: model, requested: model, source })
  let decision: ModelSwitchDecision
  try {
    decision = await waterfall(ctx, 'agent/model-switch', [agent, change], () => ALLOW_SWITCH)
  } catch (error) {
    // A SeamError's message names the seam and the plugin.
    return { action: 'deny', reason: errorMessage(error) }
  }
  switch (decision?.action) {
    case 'deny':
      return { action: 'deny', reason: String(decision.reason ?? 'the switch was denied') }
    case 'allow':
      break
    default:
      return { action: 'deny', reason: 'agent/model-switch returned an invalid decision' }
  }
  setAgentModel(agent, model)
  emitSafely(ctx, 'agent/model-switched', agent, change)
  return ALLOW_SWITCH
}

const ALLOW_SWITCH: ModelSwitchDecision = Object.freeze({ action: 'allow' })
