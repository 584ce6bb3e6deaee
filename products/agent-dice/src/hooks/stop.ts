// The Stop hook both agents share (R20, R21): roll every slot, report misses, and on a hit hand the
// rendered nudge to the model through stderr with exit 2. Any failure fails open with exit 0.
import { runCheck } from '../core/engine.ts'
import { renderTriggers, rollLine } from '../core/render.ts'
import type { CoreCheckContext } from '../core/types.ts'
import type { FileDiceStore } from '../store/file-store.ts'
import { type HookExit, type HookIo, reportFailure } from './io.ts'

export interface StopPlan {
  store: FileDiceStore
  ctx: CoreCheckContext
  /** Where miss lines go: Claude shows stdout to the user; Codex rejects plain stdout on Stop. */
  rollLines: 'stdout' | 'stderr' | 'none'
}

export async function runStop(io: HookIo, plan: () => StopPlan): Promise<HookExit> {
  try {
    const { store, ctx, rollLines } = plan()
    const { results, slots } = await runCheck(store, ctx)
    const misses: string[] = []
    for (const result of results) {
      const slot = slots.get(result.slotName)
      if (slot && !result.triggered && result.diceCount > 0) misses.push(rollLine(result, slot.die))
    }
    if (misses.length > 0 && rollLines !== 'none') {
      const text = `${misses.join('\n')}\n`
      if (rollLines === 'stdout') io.stdout(text)
      else io.stderr(text)
    }
    const block = renderTriggers(results, slots)
    if (!block) return 0
    io.stderr(`${block}\n`)
    return 2
  } catch (error) {
    reportFailure(io, 'agent-dice stop hook error:', error)
    return 0
  }
}
