import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectedFirstHit, oddsTable } from '../src/core/probability.ts'
import { slot } from './helpers.ts'

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')

/** `5.00%` → 5, `0%` → 0. */
const pct = (s: string) => Number(s.replace('%', ''))

describe('R10 docs', () => {
  it('R10 the README odds table equals cumulativeProbability for rate 7, d20, exact 20 (R27 fix 6)', () => {
    const rows = oddsTable(slot({ name: 'default' }), 0, 41)
    const byDepth = new Map(rows.map((r) => [r.depth, r]))
    const table = readme.split('\n').filter((l) => /^\| \d+–\d+ \|/.test(l))
    expect(table).toHaveLength(6)
    for (const line of table) {
      const [band, dice, perTurn, cumulative] = line
        .split('|')
        .slice(1, 5)
        .map((c) => c.trim())
      const [from, to] = band.split('–').map(Number)
      for (let d = from; d <= to; d++) {
        expect(byDepth.get(d)?.dice).toBe(Number(dice))
        expect(byDepth.get(d)?.perTurn).toBe(pct(perTurn))
      }
      const [first, last] = cumulative.split('→').map((c) => pct(c.trim()))
      expect(byDepth.get(from)?.cumulative).toBe(first)
      expect(byDepth.get(to)?.cumulative).toBe(last ?? first)
    }
  })
  it('R10 the README milestones (50% at 17, 90% at 28, 99% at 38, expected ≈ 17.9) hold', () => {
    const rows = oddsTable(slot({ name: 'default' }), 0, 60)
    const first = (p: number) => rows.find((r) => r.cumulative >= p)?.depth
    expect(readme).toContain('50% is passed at turn 17 (53.67%), 90% at turn 28, 99% at turn 38')
    expect([first(50), first(90), first(99)]).toEqual([17, 28, 38])
    expect(readme).toContain('around turn 17.9')
    expect(expectedFirstHit(slot({ name: 'default' })).toFixed(1)).toBe('17.9')
  })
})
