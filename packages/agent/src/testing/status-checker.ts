// Legal agent status transitions (SL-20's "legal agent status transitions"): idle → running → idle,
// and → disposed from either; nothing leaves disposed.
import type { Context } from 'cordis'
import type { AgentStatus } from '../types.ts'

const legal: Record<AgentStatus, readonly AgentStatus[]> = {
  idle: ['running', 'disposed'],
  running: ['idle', 'disposed'],
  disposed: [],
}

export class StatusTransitionError extends Error {
  override readonly name = 'InvariantError'
}

/** Records every illegal transition; `violations` is checked by tests (emit listeners cannot throw into the loop). */
export function installStatusInvariant(ctx: Context): { readonly violations: readonly string[] } {
  const violations: string[] = []
  ctx.on('agent/status', (agent, status, previous) => {
    if (!legal[previous].includes(status)) violations.push(`${agent.id}: ${previous} → ${status}`)
  })
  return { violations }
}
