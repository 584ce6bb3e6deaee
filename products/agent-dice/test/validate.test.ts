import { describe, expect, it } from 'vitest'
import {
  checkSlot,
  formatIssue,
  isValidSessionId,
  nameIssue,
  SLOT_DEFAULTS,
  slotIssue,
} from '../src/core/validate.ts'
import { slot } from './helpers.ts'

describe('R11 slot fields and defaults', () => {
  it('R11 defaults are the public ones, in the public key order', () => {
    expect(Object.keys(SLOT_DEFAULTS)).toEqual([
      'targetMode',
      'type',
      'accumulationRate',
      'maxDice',
      'fixedCount',
      'cooldown',
      'clearOnSessionStart',
      'resetOnTrigger',
      'flavor',
    ])
    expect(SLOT_DEFAULTS).toMatchObject({
      targetMode: 'exact',
      type: 'accumulator',
      accumulationRate: 7,
      maxDice: 100,
      fixedCount: 1,
    })
  })
  it('R11 a hand-written slot may omit optional fields', () => {
    const check = checkSlot({ name: 'min', die: 6, target: 6, onTrigger: { message: 'hi' } }, 'min')
    expect(check.ok && check.slot.type).toBe('accumulator')
  })
})

describe('R12 validation', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ die: 0 }, 'die'],
    [{ die: Number.MAX_SAFE_INTEGER + 1 }, 'die'],
    [{ die: 6.5 }, 'die'],
    [{ target: 21 }, 'target'],
    [{ target: 0 }, 'target'],
    [{ targetMode: 'near' }, 'targetMode'],
    [{ type: 'pool' }, 'type'],
    [{ accumulationRate: 0 }, 'accumulationRate'],
    [{ maxDice: 100_001 }, 'maxDice'],
    [{ fixedCount: 100_001 }, 'fixedCount'],
    [{ fixedCount: 0 }, 'fixedCount'],
    [{ cooldown: 'daily' }, 'cooldown'],
    [{ flavor: 'yes' }, 'flavor'],
    [{ clearOnSessionStart: 1 }, 'clearOnSessionStart'],
    [{ onTrigger: { message: '' } }, 'onTrigger.message'],
    [{ onTrigger: { message: 42 } }, 'onTrigger.message'],
  ]
  for (const [patch, field] of cases) {
    it(`R12 rejects ${JSON.stringify(patch).slice(0, 40)} on ${field} (R27 fix 7)`, () => {
      expect(slotIssue({ ...slot({ name: 'x' }), ...patch })?.field).toBe(field)
    })
  }
  it('R12 accepts the limits', () => {
    expect(
      slotIssue(
        slot({
          name: 'x',
          die: Number.MAX_SAFE_INTEGER,
          target: Number.MAX_SAFE_INTEGER,
          maxDice: 100_000,
          fixedCount: 100_000,
          onTrigger: { message: 'x'.repeat(100_000) },
        }),
      ),
    ).toBeUndefined()
  })
  it('R12 name errors keep the public wording; names are capped at 64 characters', () => {
    expect(formatIssue(nameIssue('-bad')!)).toBe(
      'Invalid slot name "-bad": must start with alphanumeric, contain only [a-zA-Z0-9_-]',
    )
    expect(nameIssue('a'.repeat(64))).toBeUndefined()
    expect(nameIssue('a'.repeat(65))?.reason).toMatch(/64/)
  })
  it('R12 a stored slot whose name differs from its key is invalid', () => {
    const check = checkSlot(slot({ name: 'other' }), 'key')
    expect(check.ok).toBe(false)
  })
})

describe('R15 session ids', () => {
  it('R15 dotted ids are accepted (R27 fix 9); traversal and edge punctuation are rejected', () => {
    expect(isValidSessionId('019f4d75-c99d.7aa0_x')).toBe(true)
    expect(isValidSessionId('a')).toBe(true)
    for (const bad of ['../x', 'a/b', '.a', 'a.', '', 'x'.repeat(129), 'a b'])
      expect(isValidSessionId(bad)).toBe(false)
  })
})
