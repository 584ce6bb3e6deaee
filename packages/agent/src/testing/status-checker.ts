// Legal agent status transitions (SL-20's "legal agent status transitions"): idle → running → idle,
// and → disposed from either; nothing leaves disposed. This one records violations for a test to
// assert on; `installStructureInvariant` (invariants.ts) checks the same table and throws.
import type { Context } from '@tack/kernel'
import { STATUS_MOVES } from './invariants.ts'

/** Records every illegal transition; `violations` is checked by tests (emit listeners cannot throw into the loop). */
export function installStatusInvariant(ctx: Context): { readonly violations: readonly string[] } {
  const violations: string[] = []
  ctx.on('agent/status', (agent, status, previous) => {
    if (!STATUS_MOVES[previous].includes(status)) violations.push(`${agent.id}: ${previous} → ${status}`)
  })
  return { violations }
}
