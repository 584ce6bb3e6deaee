// plugins.tui: every field's default, a configured value, and values out of range refused with a
// message naming the key and the range.
import { describe, expect, test } from 'vitest'
import { TuiConfig } from '../src/config.ts'

describe('TuiConfig', () => {
  test('defaults', () => {
    expect(TuiConfig.parse({})).toEqual({
      historyEntries: 1000,
      diffMaxLines: 40,
      failureTailLines: 6,
      innerCallsShown: 8,
      permissionNotifyMs: 6000,
      idleNotifyMs: 60_000,
    })
  })

  test('configured values are kept', () => {
    expect(
      TuiConfig.parse({
        historyEntries: 0,
        diffMaxLines: 200,
        failureTailLines: 12,
        innerCallsShown: 3,
        permissionNotifyMs: 1000,
        idleNotifyMs: 5000,
      }),
    ).toEqual({
      historyEntries: 0,
      diffMaxLines: 200,
      failureTailLines: 12,
      innerCallsShown: 3,
      permissionNotifyMs: 1000,
      idleNotifyMs: 5000,
    })
  })

  test.each([
    ['historyEntries', -1],
    ['historyEntries', 100_001],
    ['historyEntries', 1.5],
    ['diffMaxLines', 4],
    ['diffMaxLines', 'many'],
    ['failureTailLines', 0],
    ['failureTailLines', 201],
    ['innerCallsShown', 0],
    ['innerCallsShown', 1001],
    ['permissionNotifyMs', 999],
    ['permissionNotifyMs', 3_600_001],
    ['idleNotifyMs', 999],
    ['idleNotifyMs', 86_400_001],
  ])('%s = %j is refused, naming the key', (key, value) => {
    expect(() => TuiConfig.parse({ [key]: value })).toThrow(key)
  })
})
