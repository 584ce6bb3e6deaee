// Rolling and target checks: pure functions over an injectable random source.
import type { TargetMode } from './types.ts'

/** `n` values of `floor(rng()·die)+1`; `[]` when `n ≤ 0` or `die ≤ 0`. */
export function rollDice(n: number, die: number, rng: () => number = Math.random): number[] {
  if (n <= 0 || die <= 0) return []
  const rolls: number[] = []
  for (let i = 0; i < n; i++) rolls.push(Math.floor(rng() * die) + 1)
  return rolls
}

function qualifies(roll: number, target: number, mode: TargetMode): boolean {
  switch (mode) {
    case 'exact':
      return roll === target
    case 'gte':
      return roll >= target
    case 'lte':
      return roll <= target
    default: {
      const never: never = mode
      return never
    }
  }
}

/** Whether any roll hits the target under `mode`. */
export function checkTarget(rolls: readonly number[], target: number, mode: TargetMode): boolean {
  return rolls.some((r) => qualifies(r, target, mode))
}

/**
 * The roll that hit: the target itself (exact), the smallest qualifying roll (gte) or the largest
 * (lte) — the value closest to the threshold, so a low `lte` hit reads as "Nat 2", not the best roll.
 */
export function findTriggerValue(
  rolls: readonly number[],
  target: number,
  mode: TargetMode,
): number | undefined {
  const hits = rolls.filter((r) => qualifies(r, target, mode))
  if (hits.length === 0) return undefined
  switch (mode) {
    case 'exact':
      return target
    case 'gte':
      return Math.min(...hits)
    case 'lte':
      return Math.max(...hits)
    default: {
      const never: never = mode
      return never
    }
  }
}

/** The largest roll, 0 when none. */
export function bestOf(rolls: readonly number[]): number {
  return rolls.length === 0 ? 0 : Math.max(...rolls)
}
