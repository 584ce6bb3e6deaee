// Object schemas may check a rule that spans fields (`refine`): it runs once every field is valid, its
// issues name keys under the object's own path, and a config file's loader reports them like any other.
import { describe, expect, test } from 'vitest'
import { ConfigError, Schema } from '../src/index.ts'

const Inner = Schema.object(
  {
    low: Schema.integer({ default: 1, description: 'low' }),
    high: Schema.integer({ default: 10, description: 'high' }),
  },
  { refine: (v) => (v.low < v.high ? [] : [{ path: 'low', message: `must be below high (${v.high})` }]) },
)
const Outer = Schema.object({ inner: Inner })

describe('Schema.object refine', () => {
  test('passes a valid object and reports a broken rule at the nested key', () => {
    expect(Outer.parse({ inner: { low: 2 } })).toEqual({ inner: { low: 2, high: 10 } })
    expect(() => Outer.parse({ inner: { low: 10 } }, 'my.yml')).toThrow(
      new ConfigError([{ path: 'inner.low', message: 'must be below high (10)' }], 'my.yml'),
    )
  })

  test('does not run while a field is invalid (only the field is reported)', () => {
    try {
      Outer.parse({ inner: { low: 'x', high: 0 } })
      throw new Error('expected a ConfigError')
    } catch (error) {
      expect((error as ConfigError).issues.map((i) => i.path)).toEqual(['inner.low'])
    }
  })
})
