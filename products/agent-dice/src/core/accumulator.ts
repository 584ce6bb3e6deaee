// Accumulator dice counts and the "reset at unknown depth" sentinel (R4).
import type { DiceSlotConfig, DiceState } from './types.ts'

/** `min(floor(max(0, turnsSince) / accumulationRate), maxDice)`. */
export function accumulatorDice(
  slot: Pick<DiceSlotConfig, 'accumulationRate' | 'maxDice'>,
  turnsSince: number,
): number {
  return Math.min(Math.floor(Math.max(0, turnsSince) / slot.accumulationRate), slot.maxDice)
}

export interface AccumulatorReading {
  diceCount: number
  /** 0 when the depth is unknown. */
  currentDepth: number
  depthSinceTrigger: number
  /** The trigger depth the count was measured from (the adopted depth after a calibration). */
  fromDepth: number
  /** Present when a sentinel was calibrated to a known depth; the caller persists it (a check does). */
  calibratedState?: DiceState
}

/** Whether a stored state means "reset while depth was unknown". */
export const isSentinel = (state: DiceState) => state.depth_at_last_trigger < 0

/**
 * Reads an accumulator at `depth` (undefined = unknown). Unknown depth gives 0 dice and never a
 * calibration; a sentinel at a known depth adopts that depth (0 dice) and asks to be saved once.
 */
export function readAccumulator(
  slot: DiceSlotConfig,
  depth: number | undefined,
  state: DiceState,
  nowIso: string,
): AccumulatorReading {
  if (depth === undefined) {
    const fromDepth = isSentinel(state) ? 0 : state.depth_at_last_trigger
    return { diceCount: 0, currentDepth: 0, depthSinceTrigger: 0, fromDepth }
  }
  if (isSentinel(state)) {
    return {
      diceCount: 0,
      currentDepth: depth,
      depthSinceTrigger: 0,
      fromDepth: depth,
      calibratedState: { depth_at_last_trigger: depth, last_reset: nowIso },
    }
  }
  const since = Math.max(0, depth - state.depth_at_last_trigger)
  return {
    diceCount: accumulatorDice(slot, since),
    currentDepth: depth,
    depthSinceTrigger: since,
    fromDepth: state.depth_at_last_trigger,
  }
}
