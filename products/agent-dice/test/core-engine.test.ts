import { describe, expect, it } from 'vitest'
import { accumulatorDice, readAccumulator } from '../src/core/accumulator.ts'
import {
  checkAll,
  clearSlot,
  preview,
  resetSlot,
  runCheck,
  sessionStart,
  status,
} from '../src/core/engine.ts'
import { checkTarget, findTriggerValue, rollDice } from '../src/core/roll.ts'
import type { DiceResult, DiceSlotConfig } from '../src/core/types.ts'
import { calculateProbability } from '../src/core/probability.ts'
import { ctx, FIXED_NOW, memoryHost, mulberry32, slot } from './helpers.ts'

const st = (depth: number) => ({ depth_at_last_trigger: depth, last_reset: 't' })
const iso = new Date(FIXED_NOW).toISOString()

describe('R4 dice count', () => {
  it('R4 rate 7 at depths 0/6/7/13/14/21 gives 0/0/1/1/2/3 dice', () => {
    const acc = slot({ name: 'a' })
    const got = [0, 6, 7, 13, 14, 21].map((d) => readAccumulator(acc, d, st(0), iso).diceCount)
    expect(got).toEqual([0, 0, 1, 1, 2, 3])
  })
  it('R4 maxDice 2 at depth 70 gives 2; unknown depth gives 0', () => {
    expect(readAccumulator(slot({ name: 'a', maxDice: 2 }), 70, st(0), iso).diceCount).toBe(2)
    expect(readAccumulator(slot({ name: 'a' }), undefined, st(0), iso).diceCount).toBe(0)
    expect(accumulatorDice({ accumulationRate: 7, maxDice: 100 }, -5)).toBe(0)
  })
  it('R4 a sentinel at depth 30 gives 0 dice and stores 30 once', async () => {
    const host = memoryHost([slot({ name: 'a', cooldown: 'none' })], mulberry32(1))
    host.state.set('a::s', st(-1))
    const results = await checkAll(host, ctx('s', 30))
    expect(results[0].diceCount).toBe(0)
    expect(host.state.get('a::s')?.depth_at_last_trigger).toBe(30)
    expect(host.writes).toEqual(['state:a'])
    const again = await checkAll(host, ctx('s', 44))
    expect(again[0].diceCount).toBe(2)
  })
  it('R4 a sentinel at unknown depth stores nothing', async () => {
    const host = memoryHost([slot({ name: 'a', cooldown: 'none' })], mulberry32(1))
    host.state.set('a::s', st(-1))
    const results = await checkAll(host, ctx('s', undefined))
    expect(results[0].diceCount).toBe(0)
    expect(host.writes).toEqual([])
    expect(host.state.get('a::s')?.depth_at_last_trigger).toBe(-1)
  })
})

describe('R5 rolls and targets', () => {
  it('R5 rollDice returns n values of floor(rng*die)+1 and [] when n <= 0', () => {
    const values = [0, 0.5, 0.999]
    let i = 0
    expect(rollDice(3, 20, () => values[i++])).toEqual([1, 11, 20])
    expect(rollDice(0, 20)).toEqual([])
    expect(rollDice(-1, 20)).toEqual([])
  })
  it('R5 exact, gte and lte hits with their trigger values', () => {
    expect(checkTarget([3, 20], 20, 'exact')).toBe(true)
    expect(findTriggerValue([3, 20], 20, 'exact')).toBe(20)
    expect(checkTarget([3, 15, 18], 15, 'gte')).toBe(true)
    expect(findTriggerValue([3, 18, 15], 15, 'gte')).toBe(15)
    expect(findTriggerValue([2, 17, 3], 3, 'lte')).toBe(3)
    expect(findTriggerValue([2, 17], 3, 'lte')).toBe(2)
    expect(checkTarget([4, 5], 3, 'lte')).toBe(false)
    expect(findTriggerValue([4, 5], 3, 'lte')).toBeUndefined()
  })
})

/** Independent reference of the public scheduler for single/fixed slots (grouping and RNG order). */
function oracle(slots: DiceSlotConfig[], rng: () => number): DiceResult[] {
  const groups = new Map<number, DiceSlotConfig[]>()
  for (const s of slots) groups.set(s.die, [...(groups.get(s.die) ?? []), s])
  const roll = (n: number, die: number) => Array.from({ length: n }, () => Math.floor(rng() * die) + 1)
  const out: DiceResult[] = []
  for (const [die, group] of groups) {
    const base = roll(1, die)[0]
    for (const s of group) {
      const n = s.type === 'fixed' ? s.fixedCount : 1
      const rolls = [base, ...roll(n - 1, die)]
      const triggered = checkTarget(rolls, s.target, s.targetMode)
      const r: DiceResult = {
        slotName: s.name,
        triggered,
        rolls,
        best: Math.max(...rolls),
        diceCount: n,
        probability: calculateProbability(n, die, s.target, s.targetMode),
      }
      if (triggered) r.triggerValue = findTriggerValue(rolls, s.target, s.targetMode)
      out.push(r)
    }
  }
  return out
}

describe('R6 shared-roll check', () => {
  it('R6 golden seed 777 reproduces the public conformance output exactly', async () => {
    const defs = [
      slot({ name: 'g_a', type: 'single', cooldown: 'none' }),
      slot({ name: 'g_b', type: 'single', target: 1, cooldown: 'none' }),
      slot({
        name: 'g_c',
        type: 'fixed',
        die: 6,
        fixedCount: 2,
        target: 6,
        targetMode: 'gte',
        cooldown: 'none',
      }),
    ]
    const r = await checkAll(memoryHost(defs, mulberry32(777)), ctx('s'))
    expect(r.map((x) => [x.slotName, x.rolls, x.triggered])).toEqual([
      ['g_a', [14], false],
      ['g_b', [14], false],
      ['g_c', [1, 2], false],
    ])
  })
  it('R6 seed 12345 matches an independent oracle of grouping and RNG order', async () => {
    const defs = [
      slot({ name: 's_a', type: 'single', cooldown: 'none' }),
      slot({ name: 's_b', type: 'single', target: 1, cooldown: 'none' }),
      slot({ name: 'f_d20', type: 'fixed', fixedCount: 2, target: 15, targetMode: 'gte', cooldown: 'none' }),
      slot({
        name: 'f_d6',
        type: 'fixed',
        die: 6,
        fixedCount: 3,
        target: 6,
        targetMode: 'gte',
        cooldown: 'none',
      }),
    ]
    const engine = await checkAll(memoryHost(defs, mulberry32(12345)), ctx('x'))
    expect(engine).toEqual(oracle(defs, mulberry32(12345)))
  })
  it('R6 two single d20 slots with exact targets 19 and 20 never both hit in 1,000 seeded checks', async () => {
    const defs = [
      slot({ name: 'a', type: 'single', target: 19, cooldown: 'none' }),
      slot({ name: 'b', type: 'single', cooldown: 'none' }),
    ]
    const host = memoryHost(defs, mulberry32(42))
    let hits = 0
    for (let i = 0; i < 1000; i++) {
      const [a, b] = await checkAll(host, ctx('s'))
      expect(a.triggered && b.triggered).toBe(false)
      hits += Number(a.triggered) + Number(b.triggered)
    }
    expect(hits).toBeGreaterThan(50)
  })
  it('R6 cooled per-session slots come first, never roll and never ask for depth', async () => {
    const defs = [
      slot({ name: 'hot', type: 'single', target: 1 }),
      slot({ name: 'cooled', cooldown: 'per-session' }),
    ]
    const host = memoryHost(defs, mulberry32(1))
    host.cooldown.add('cooled::s')
    const c = ctx('s', 50)
    const r = await checkAll(host, c)
    expect(r.map((x) => x.slotName)).toEqual(['cooled', 'hot'])
    expect(r[0]).toEqual({
      slotName: 'cooled',
      triggered: false,
      rolls: [],
      best: 0,
      diceCount: 0,
      probability: 0,
    })
    expect(c.calls).toBe(0)
  })
  it('R6 depth is requested only with an active accumulator, at most once, and a zero-dice group rolls nothing', async () => {
    const host = memoryHost(
      [slot({ name: 'a1', cooldown: 'none' }), slot({ name: 'a2', cooldown: 'none' })],
      mulberry32(3),
    )
    const c = ctx('s', 3)
    const r = await checkAll(host, c)
    expect(c.calls).toBe(1)
    expect(host.rngCalls).toBe(0)
    expect(r.every((x) => x.rolls.length === 0)).toBe(true)
    const fixedOnly = ctx('s', 3)
    await checkAll(
      memoryHost([slot({ name: 'f', type: 'fixed', cooldown: 'none' })], mulberry32(3)),
      fixedOnly,
    )
    expect(fixedOnly.calls).toBe(0)
  })
  it('R12 an invalid stored slot is never rolled and blocks no other', async () => {
    const host = memoryHost(
      [{ name: 'bad', die: 'x' }, slot({ name: 'ok', type: 'single', die: 1, target: 1 })],
      mulberry32(1),
    )
    const { results } = await runCheck(host, ctx('s'))
    expect(results.map((r) => [r.slotName, r.triggered])).toEqual([['ok', true]])
  })
})

describe('R7 trigger effects', () => {
  it('R7 an accumulator hit with resetOnTrigger saves {depth, now} and a per-session slot marks cooldown', async () => {
    const host = memoryHost([slot({ name: 't', die: 1, target: 1, accumulationRate: 1 })])
    const r = await checkAll(host, ctx('s', 5))
    expect(r[0].triggered).toBe(true)
    expect(host.state.get('t::s')).toEqual({ depth_at_last_trigger: 5, last_reset: iso })
    expect(host.cooldown.has('t::s')).toBe(true)
  })
  it('R7 fixed and single never write state; cooldown none writes no marker', async () => {
    const host = memoryHost([
      slot({ name: 'f', type: 'fixed', die: 1, target: 1, cooldown: 'none' }),
      slot({ name: 'g', type: 'single', die: 1, target: 1, cooldown: 'none' }),
      slot({ name: 'a', die: 1, target: 1, accumulationRate: 1, cooldown: 'none', resetOnTrigger: false }),
    ])
    const r = await checkAll(host, ctx('s', 3))
    expect(r.every((x) => x.triggered)).toBe(true)
    expect(host.writes).toEqual([])
  })
})

describe('R8 other operations', () => {
  it('R8 sessionStart clears every clearOnSessionStart slot and returns their names', async () => {
    const host = memoryHost([slot({ name: 'a' }), slot({ name: 'b', clearOnSessionStart: false })])
    host.state.set('a::s', st(9))
    host.cooldown.add('a::s')
    host.cooldown.add('b::s')
    expect(await sessionStart(host, { sessionId: 's' })).toEqual(['a'])
    expect(host.state.get('a::s')?.depth_at_last_trigger).toBe(0)
    expect(host.cooldown.has('a::s')).toBe(false)
    expect(host.cooldown.has('b::s')).toBe(true)
  })
  it('R8 clearSlot writes {0, now} and removes the marker; resetSlot writes the depth or -1', async () => {
    const host = memoryHost([slot({ name: 'x' })])
    host.state.set('x::s', st(5))
    host.cooldown.add('x::s')
    expect(await clearSlot(host, 'x', { sessionId: 's' })).toBe(true)
    expect(host.state.get('x::s')).toEqual({ depth_at_last_trigger: 0, last_reset: iso })
    expect(host.cooldown.has('x::s')).toBe(false)
    await resetSlot(host, 'x', ctx('s', 12))
    expect(host.state.get('x::s')?.depth_at_last_trigger).toBe(12)
    await resetSlot(host, 'x', ctx('s', undefined))
    expect(host.state.get('x::s')?.depth_at_last_trigger).toBe(-1)
    expect(await clearSlot(host, 'nope', { sessionId: 's' })).toBe(false)
  })
  it('R8 status reports nextDiceAt for accumulators and never writes, not even a calibration', async () => {
    const host = memoryHost([slot({ name: 'a' }), slot({ name: 'f', type: 'fixed', fixedCount: 3 })])
    host.state.set('a::s', st(6))
    const s = await status(host, 'a', ctx('s', 20))
    expect(s).toMatchObject({
      diceCount: 2,
      currentDepth: 20,
      depthSinceTrigger: 14,
      nextDiceAt: 27,
      probability: 9.75,
      cooldownActive: false,
    })
    host.state.set('a::s', st(-1))
    const calibrating = await status(host, 'a', ctx('s', 30))
    expect(calibrating).toMatchObject({ diceCount: 0, currentDepth: 30, nextDiceAt: 37 })
    expect(await status(host, 'f', ctx('s', 30))).toMatchObject({
      diceCount: 3,
      currentDepth: 0,
      nextDiceAt: 0,
      depthSinceTrigger: 0,
    })
    expect(host.writes).toEqual([])
    expect(await status(host, 'missing', ctx('s'))).toBeNull()
  })
  it('R8 preview rolls with no side effects', () => {
    const r = preview(slot({ name: 'p', die: 6, target: 6, targetMode: 'gte' }), 3, mulberry32(9))
    expect(r.rolls).toHaveLength(3)
    expect(r.diceCount).toBe(3)
    expect(preview(slot({ name: 'p' }), 0).rolls).toEqual([])
  })
})

describe('R9 continuation guard', () => {
  it('R9 a continuation returns [] using no randomness and writes nothing (R27 fix 3)', async () => {
    const host = memoryHost(
      [slot({ name: 'loop', type: 'single', die: 1, target: 1, cooldown: 'none' })],
      mulberry32(1),
    )
    const c = ctx('s', 10, true)
    expect(await checkAll(host, c)).toEqual([])
    expect(host.rngCalls).toBe(0)
    expect(host.writes).toEqual([])
    expect(c.calls).toBe(0)
  })
})
