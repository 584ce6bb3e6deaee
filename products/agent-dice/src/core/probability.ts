// Probability helpers (R10). Chances are exact per slot even where slots share a base die, because
// each slot still sees `diceCount` independent uniform rolls.
import { accumulatorDice } from './accumulator.ts'
import type { DiceSlotConfig, TargetMode } from './types.ts'

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))

/** Chance that one die misses, clamped to [0, 1] so a target outside the die cannot leave 0–100. */
export function missChance(die: number, target: number, mode: TargetMode): number {
  switch (mode) {
    case 'exact':
      return clamp((die - 1) / die, 0, 1)
    case 'gte':
      return clamp((target - 1) / die, 0, 1)
    case 'lte':
      return clamp((die - target) / die, 0, 1)
    default: {
      const never: never = mode
      return never
    }
  }
}

/** Chance in [0, 1] that `n` dice hit at least once. */
export function hitChance(n: number, die: number, target: number, mode: TargetMode): number {
  if (n <= 0 || die <= 0) return 0
  return clamp(1 - missChance(die, target, mode) ** n, 0, 1)
}

/** Rounds a [0, 1] chance to a percentage with two decimals (the public rounding, kept exactly). */
export function toPercent(chance: number): number {
  return clamp(Math.round(chance * 10000) / 100, 0, 100)
}

/** `100·(1 − pMiss^n)`, clamped to [0, 100] and rounded to two decimals; 0 when `n ≤ 0` or `die ≤ 0`. */
export function calculateProbability(n: number, die: number, target: number, mode: TargetMode): number {
  return toPercent(hitChance(n, die, target, mode))
}

/** Dice a slot rolls `turnsSince` user turns after its last trigger. */
export function diceAfter(slot: DiceSlotConfig, turnsSince: number): number {
  switch (slot.type) {
    case 'accumulator':
      return accumulatorDice(slot, turnsSince)
    case 'fixed':
      return slot.fixedCount
    case 'single':
      return 1
    default: {
      const never: never = slot.type
      return never
    }
  }
}

export interface OddsRow {
  depth: number
  dice: number
  /** Percentage for this turn alone. */
  perTurn: number
  /** Percentage of at least one hit from `fromDepth + 1` through this depth. */
  cumulative: number
}

/**
 * One row per user turn at depths `fromDepth+1 … toDepth`, assuming one check per turn and no reset
 * in between (a hit would end the accumulation, so `cumulative` is the chance of a first hit by then).
 */
export function oddsTable(slot: DiceSlotConfig, fromDepth: number, toDepth: number): OddsRow[] {
  const rows: OddsRow[] = []
  let allMiss = 1
  for (let depth = fromDepth + 1; depth <= toDepth; depth++) {
    const dice = diceAfter(slot, depth - fromDepth)
    const p = hitChance(dice, slot.die, slot.target, slot.targetMode)
    allMiss *= 1 - p
    rows.push({ depth, dice, perTurn: toPercent(p), cumulative: toPercent(1 - allMiss) })
  }
  return rows
}

/** `100·(1 − Π(1 − p(nₜ)))` over depths `fromDepth+1 … toDepth`. */
export function cumulativeProbability(slot: DiceSlotConfig, fromDepth: number, toDepth: number): number {
  const rows = oddsTable(slot, fromDepth, toDepth)
  return rows.length === 0 ? 0 : rows[rows.length - 1].cumulative
}

/**
 * Expected turn of the first hit after a trigger, `Σₜ P(no hit before t)`, summed until the
 * remaining mass is negligible (or `maxTurns`). `Infinity` when the slot can never hit.
 */
export function expectedFirstHit(slot: DiceSlotConfig, maxTurns = 100_000): number {
  let survive = 1
  let expected = 0
  for (let t = 1; t <= maxTurns; t++) {
    expected += survive
    survive *= 1 - hitChance(diceAfter(slot, t), slot.die, slot.target, slot.targetMode)
    if (survive < 1e-12) return expected
  }
  return Number.POSITIVE_INFINITY
}
