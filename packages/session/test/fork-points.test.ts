// The points a refused `fork --at` lists (fork-points.ts): turn starts and the end, the nearest when many.
import { expect, test } from 'vitest'
import { describeForkPoints, type ForkPoint } from '../src/fork-points.ts'

test('many fork points: the 12 nearest to the refused one, in log order, with the count', () => {
  const points: ForkPoint[] = Array.from({ length: 30 }, (_, i) => ({ seq: i * 10, turn: i + 1 }))
  points.push({ seq: 300 })
  const text = describeForkPoints(points, 155)
  expect(text).toBe(
    '100 (before turn 11), 110 (before turn 12), 120 (before turn 13), 130 (before turn 14), ' +
      '140 (before turn 15), 150 (before turn 16), 160 (before turn 17), 170 (before turn 18), ' +
      '180 (before turn 19), 190 (before turn 20), 200 (before turn 21), 210 (before turn 22) (the 12 nearest of 31)',
  )
  expect(describeForkPoints([], 3)).toBe('none (the whole log is one open turn)')
})
