import { describe, expect, it } from 'vitest'
import {
  calculateProbability,
  cumulativeProbability,
  expectedFirstHit,
  oddsTable,
} from '../src/core/probability.ts'
import { applyPlaceholders, renderTrigger, renderTriggers } from '../src/core/render.ts'
import { preview } from '../src/core/engine.ts'
import { slotIssue } from '../src/core/validate.ts'
import { slot } from './helpers.ts'

describe('R10 probability helpers', () => {
  it('R10 calculateProbability per mode, 0 for n <= 0 or die <= 0', () => {
    expect(calculateProbability(1, 20, 20, 'exact')).toBe(5)
    expect(calculateProbability(2, 20, 20, 'exact')).toBe(9.75)
    expect(calculateProbability(3, 20, 20, 'exact')).toBe(14.26)
    expect(calculateProbability(1, 20, 15, 'gte')).toBe(30)
    expect(calculateProbability(1, 20, 3, 'lte')).toBe(15)
    expect(calculateProbability(0, 20, 20, 'exact')).toBe(0)
    expect(calculateProbability(2, 0, 1, 'exact')).toBe(0)
  })
  it('R10 probability stays within 0–100 for targets outside the die (R27 fix 5)', () => {
    expect(calculateProbability(2, 20, 25, 'lte')).toBe(100)
    expect(calculateProbability(2, 20, 30, 'gte')).toBe(0)
    expect(calculateProbability(3, 6, -2, 'gte')).toBe(100)
    expect(slotIssue(slot({ name: 'x', die: 20, target: 21 }))?.field).toBe('target')
  })
  it('R10 cumulative odds of rate 7, d20, exact 20 match the corrected table', () => {
    const s = slot({ name: 'r' })
    const at = (t: number) => cumulativeProbability(s, 0, t)
    expect([at(6), at(7), at(13), at(14), at(20), at(21), at(27), at(28), at(34), at(35), at(41)]).toEqual([
      0, 5, 30.17, 36.98, 65.94, 70.8, 88.4, 90.55, 97.24, 97.87, 99.54,
    ])
    const rows = oddsTable(s, 0, 41)
    expect(rows.find((r) => r.cumulative >= 50)).toMatchObject({ depth: 17, cumulative: 53.67 })
    expect(rows.find((r) => r.cumulative >= 90)?.depth).toBe(28)
    expect(rows.find((r) => r.cumulative >= 99)?.depth).toBe(38)
    expect(expectedFirstHit(s)).toBeCloseTo(17.9, 1)
    expect(at(13)).not.toBeCloseTo(50, 0)
  })
})

describe('R19 rendering', () => {
  it('R19 an lte-3 slot rolling [2, 17] prints Nat 2, not the best roll (R27 fix 1)', () => {
    const s = slot({
      name: 'low',
      target: 3,
      targetMode: 'lte',
      type: 'fixed',
      fixedCount: 2,
      onTrigger: { message: 'go' },
    })
    const values = [1 / 20, 16 / 20]
    let i = 0
    const r = preview(s, 2, () => values[i++])
    expect(r.rolls).toEqual([2, 17])
    expect(renderTrigger(r, s)).toBe('🎲 Nat 2! go')
  })
  it('R19 every placeholder occurrence is replaced (R27 fix 2), and flavor false gives the bare message', () => {
    const r = {
      slotName: 'x',
      triggered: true,
      rolls: [20, 4],
      best: 20,
      triggerValue: 20,
      diceCount: 2,
      probability: 9.75,
    }
    expect(applyPlaceholders('{best}/{best} {rolls} {diceCount} {slotName} {triggerValue} $&', r)).toBe(
      '20/20 20, 4 2 x 20 $&',
    )
    expect(renderTrigger(r, { flavor: false, onTrigger: { message: 'plain {best}' } })).toBe('plain 20')
  })
  it('R19 triggers join with a newline in result order', () => {
    const a = slot({ name: 'a', onTrigger: { message: 'A' } })
    const b = slot({ name: 'b', onTrigger: { message: 'B' }, flavor: false })
    const hit = (name: string) => ({
      slotName: name,
      triggered: true,
      rolls: [20],
      best: 20,
      triggerValue: 20,
      diceCount: 1,
      probability: 5,
    })
    const miss = { slotName: 'c', triggered: false, rolls: [3], best: 3, diceCount: 1, probability: 5 }
    const slots = new Map([
      ['a', a],
      ['b', b],
    ])
    expect(renderTriggers([hit('b'), miss, hit('a')], slots)).toBe('B\n🎲 Nat 20! A')
  })
})
