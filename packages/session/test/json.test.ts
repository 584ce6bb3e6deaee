import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { checkJson, MAX_JSON_DEPTH, SessionEventError } from '../src/index.ts'
import { newSession, startTurn } from './helpers.ts'

describe('checkJson', () => {
  const cyclic: Record<string, unknown> = { a: 1 }
  cyclic.self = cyclic
  const sparse: unknown[] = [1]
  sparse[2] = 3 // leaves a hole at index 1
  const arrayWithProp = Object.assign([1], { extra: true })
  const accessor = Object.defineProperty({}, 'x', { get: () => 1, enumerable: true })
  const hidden = Object.defineProperty({}, 'x', { value: 1, enumerable: false })
  let deep: unknown = 1
  for (let i = 0; i < MAX_JSON_DEPTH + 1; i++) deep = [deep]

  const rejected: Array<[string, unknown, string, RegExp]> = [
    ['NaN', { a: Number.NaN }, '/a', /finite/],
    ['Infinity', { a: [0, Number.POSITIVE_INFINITY] }, '/a/1', /finite/],
    ['-Infinity', { a: Number.NEGATIVE_INFINITY }, '/a', /finite/],
    ['BigInt', { n: 1n }, '/n', /BigInt/],
    ['function', { f: () => 1 }, '/f', /function/],
    ['symbol value', { s: Symbol('x') }, '/s', /symbol/],
    ['symbol key', { [Symbol('k')]: 1 }, '', /symbol-keyed/],
    ['Date', { items: [{ at: new Date(0) }] }, '/items/0/at', /Date/],
    ['Map', { m: new Map() }, '/m', /Map/],
    ['class instance', { c: new (class Point {})() }, '/c', /Point/],
    ['sparse array', { xs: sparse }, '/xs/1', /sparse/],
    ['array with a property', { xs: arrayWithProp }, '/xs', /extra property/],
    ['undefined in an array', [1, undefined], '/1', /undefined/],
    ['cycle', { outer: cyclic }, '/outer/self', /cycle/],
    ['getter', { g: accessor }, '/g/x', /accessor/],
    ['non-enumerable', { h: hidden }, '/h/x', /non-enumerable/],
    ['key needing escapes', { 'a/b~c': Number.NaN }, '/a~1b~0c', /finite/],
    ['too deep', deep, `/${Array(MAX_JSON_DEPTH).fill(0).join('/')}`, /deeper/],
    ['undefined at the root', undefined, '', /undefined/],
  ]
  test.each(rejected)('SL-2 rejects %s at its JSON path', (_name, value, path, reason) => {
    const r = checkJson(value)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.path).toBe(path)
    expect(r.reason).toMatch(reason)
  })

  test('SL-2 canonical copy: own undefined properties dropped, -0 stored as 0, shared refs copied', () => {
    const shared = { v: 1 }
    const input = { a: undefined, b: -0, c: [shared, shared], d: { e: undefined, f: null } }
    const r = checkJson(input)
    expect(r.ok && r.value).toEqual({ b: 0, c: [{ v: 1 }, { v: 1 }], d: { f: null } })
    expect(r.ok && Object.is((r.value as { b: number }).b, 0)).toBe(true)
    expect(r.ok && 'a' in (r.value as object)).toBe(false)
  })

  test('SL-2 a __proto__ key stays an own property, as JSON.parse makes it', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}}')
    const r = checkJson(input)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype)
    expect(JSON.stringify(r.value)).toBe('{"__proto__":{"polluted":true}}')
  })

  test('SL-2 a revoked proxy is refused, not thrown', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    const r = checkJson({ p: proxy })
    expect(r.ok).toBe(false)
  })

  test('R4 property: checkJson never throws and accepted values survive a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withObjectString: true,
          withSparseArray: true,
          withTypedArray: true,
          withUnicodeString: true,
        }),
        (value) => {
          const r = checkJson(value)
          if (r.ok) expect(JSON.parse(JSON.stringify(r.value))).toEqual(r.value)
          else expect(typeof r.path).toBe('string')
        },
      ),
      { numRuns: 500 },
    )
  })

  test('R4 property: session JSON validation never throws anything but SessionEventError', () => {
    const s = newSession()
    startTurn(s)
    fc.assert(
      fc.property(
        fc.constantFrom(
          'context/message',
          'user/message',
          'tool/result',
          'assistant/message',
          'plugin/thing',
        ),
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSparseArray: true,
          withNullPrototype: true,
        }),
        fc.option(fc.anything(), { nil: undefined }),
        (type, data, op) => {
          const before = s.length
          try {
            s.append(type as 'context/message', data as never, op as never)
          } catch (error) {
            expect(error).toBeInstanceOf(SessionEventError)
            expect(s.length).toBe(before)
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})
