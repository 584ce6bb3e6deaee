// `session.measure` (65-mod-host.md requirement 10): after each turn of a top-level agent, the context
// the last request used (its input tokens against the catalogue's window) and the session's cost from
// the catalogue's list prices; fired only when a value changed. `rateLimits` is always empty (tack has
// no subscription plans); `cost` is absent for a model without a listed price.
import type { Agent } from '@tack/agent'
import { contextWindowOf, costOf } from '@tack/llm/catalog'
import type { Usage } from '@tack/session'
import type { TurnFacts } from './lifecycle.ts'
import { echo, type Mapping } from './shared.ts'

interface Measured {
  costUsd?: number
  tokens?: number
  window?: number
}

export function createMeasure(m: Mapping) {
  const measured = new WeakMap<Agent, Measured>()
  return (agent: Agent, facts: TurnFacts, lastInput: Usage | undefined): Promise<unknown> | undefined => {
    const before = measured.get(agent) ?? {}
    const turnCost = facts.usage ? costOf(facts.model, facts.usage) : undefined
    const now: Measured = {
      costUsd: turnCost === undefined ? before.costUsd : (before.costUsd ?? 0) + turnCost,
      tokens: lastInput?.inputTokens ?? before.tokens,
      window: contextWindowOf(facts.model),
    }
    measured.set(agent, now)
    const changed = [
      ...(now.tokens !== before.tokens || now.window !== before.window ? ['context'] : []),
      ...(now.costUsd !== before.costUsd ? ['cost'] : []),
    ]
    if (changed.length === 0) return undefined
    const context = {
      ...(now.tokens === undefined ? {} : { tokens: now.tokens }),
      window: now.window,
      ...(now.tokens === undefined || !now.window
        ? {}
        : { percent: Math.round((now.tokens / now.window) * 1000) / 10 }),
    }
    const e = {
      context,
      rateLimits: [],
      ...(now.costUsd === undefined ? {} : { cost: { usd: now.costUsd } }),
      changed,
    }
    return m.host.fire('session.measure', agent, e, echo('changed'))
  }
}
