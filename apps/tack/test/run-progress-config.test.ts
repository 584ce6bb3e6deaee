// plugins.run (docs/decisions/0310-failures-stay-visible.md): its defaults, configured values kept, and
// values out of range refused naming the key. The binary's use of them: run-failures.test.ts.
import { describe, expect, test } from 'vitest'
import { RunProgressConfig, runProgressConfig } from '../src/progress/config.ts'

describe('plugins.run', () => {
  test('defaults, also for `plugins.run: false`', () => {
    expect(runProgressConfig(undefined)).toEqual({ failureTailLines: 5, summary: true })
    expect(runProgressConfig(false)).toEqual({ failureTailLines: 5, summary: true })
  })

  test('configured values are kept', () => {
    expect(runProgressConfig({ failureTailLines: 0, summary: false })).toEqual({
      failureTailLines: 0,
      summary: false,
    })
  })

  test.each([
    ['failureTailLines', -1],
    ['failureTailLines', 201],
    ['failureTailLines', 2.5],
    ['summary', 'yes'],
  ])('%s = %j is refused, naming the key', (key, value) => {
    expect(() => RunProgressConfig.parse({ [key]: value })).toThrow(key)
  })
})
