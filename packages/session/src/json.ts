// Lossless JSON (SL-2): the only values the log stores are those that survive a JSON round trip
// unchanged. `checkJson` validates and canonicalises in one walk; it never throws, so a hostile value
// (a throwing getter, a revoked proxy) becomes a refusal with a path, not a crash.
import type { JsonValue } from './events.ts'

/**
 * Nesting limit for stored values. Deeper values would overflow recursive serialisers (JSON.stringify,
 * deep freeze) further down the line, so they are refused here with a path instead.
 */
export const MAX_JSON_DEPTH = 512

export type JsonCheck = { ok: true; value: JsonValue } | { ok: false; path: string; reason: string }

class Refusal {
  readonly path: string
  readonly reason: string
  constructor(path: string, reason: string) {
    this.path = path
    this.reason = reason
  }
}

/** RFC 6901 escaping of one path segment. */
const segment = (key: string | number) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`

/**
 * Where the walk is: the keys from the root, pushed and popped as it goes. The pointer string is built
 * only for a refusal — building it for every property (two regex replaces each) was most of the cost
 * of validating an appended event (docs/decisions/0067-long-session-cost.md).
 */
type Keys = Array<string | number>
const pointer = (keys: Keys) => keys.map(segment).join('')
const refuse = (keys: Keys, reason: string) => new Refusal(pointer(keys), reason)

/**
 * Returns a canonical deep copy of `value` (own `undefined`-valued properties dropped, `-0` → `0`), or
 * the JSON pointer (relative to `value`, `''` for the root) and reason of the first offending value.
 */
export function checkJson(value: unknown): JsonCheck {
  try {
    return { ok: true, value: copy(value, [], new Set(), 0) }
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, path: error.path, reason: error.reason }
    const why = error instanceof Error ? error.message : String(error)
    return { ok: false, path: '', reason: `value could not be inspected (${why})` }
  }
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value)
  if (typeof value === 'bigint') return 'a BigInt'
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'symbol') return 'a symbol'
  if (value === undefined) return 'undefined'
  const proto = Object.getPrototypeOf(value)
  const name = proto?.constructor?.name
  return typeof name === 'string' && name ? `an instance of ${name}` : 'an exotic object'
}

function copy(value: unknown, path: Keys, ancestors: Set<object>, depth: number): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (!Number.isFinite(value)) throw refuse(path, `${describe(value)} is not a finite number`)
      return Object.is(value, -0) ? 0 : value
    case 'object':
      break
    default:
      throw refuse(path, `${describe(value)} is not JSON`)
  }
  if (value === null) return null
  if (depth >= MAX_JSON_DEPTH) throw refuse(path, `nested deeper than ${MAX_JSON_DEPTH} levels`)
  if (ancestors.has(value)) throw refuse(path, 'a cycle (the value contains itself)')
  ancestors.add(value)
  try {
    return Array.isArray(value)
      ? copyArray(value, path, ancestors, depth)
      : copyObject(value as object, path, ancestors, depth)
  } finally {
    ancestors.delete(value)
  }
}

function copyArray(value: unknown[], path: Keys, ancestors: Set<object>, depth: number): JsonValue[] {
  if (Object.getPrototypeOf(value) !== Array.prototype) throw refuse(path, `${describe(value)} is not JSON`)
  const keys = Reflect.ownKeys(value)
  // An array's own keys are its indices plus `length`; anything else would be lost by JSON.
  if (keys.length !== value.length + 1) {
    for (let i = 0; i < value.length; i++) {
      if (!Object.hasOwn(value, i)) throw refuse([...path, i], 'a hole in a sparse array')
    }
    const extra = keys.find((k) => k !== 'length' && !(typeof k === 'string' && /^(0|[1-9]\d*)$/.test(k)))
    throw refuse(path, `an array with an extra property ${String(extra)}`)
  }
  const out: JsonValue[] = new Array(value.length)
  for (let i = 0; i < value.length; i++) {
    path.push(i)
    const descriptor = Object.getOwnPropertyDescriptor(value, i)!
    if (!('value' in descriptor)) throw refuse(path, 'an accessor (getter) element')
    if (descriptor.value === undefined) throw refuse(path, 'undefined inside an array')
    out[i] = copy(descriptor.value, path, ancestors, depth + 1)
    path.pop()
  }
  return out
}

function copyObject(value: object, path: Keys, ancestors: Set<object>, depth: number): JsonValue {
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) throw refuse(path, `${describe(value)} is not JSON`)
  const out: Record<string, JsonValue> = {}
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'symbol') throw refuse(path, `a symbol-keyed property ${String(key)}`)
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!
    if (!descriptor.enumerable) throw refuse([...path, key], 'a non-enumerable property')
    if (!('value' in descriptor)) throw refuse([...path, key], 'an accessor (getter) property')
    if (descriptor.value === undefined) continue // canonical absence
    path.push(key)
    const v = copy(descriptor.value, path, ancestors, depth + 1)
    path.pop()
    // `__proto__` must become an own property, as JSON.parse makes it, not a prototype change.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true })
    else out[key] = v
  }
  return out
}

/** Deep equality of JSON values (object key order ignored; `undefined`-valued properties count as absent). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    if (a.length !== bb.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false
    return true
  }
  // Counted, not collected: the request header is compared every step, and key arrays were garbage.
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  let defined = 0
  for (const k in ao) {
    if (!Object.hasOwn(ao, k) || ao[k] === undefined) continue
    defined++
    if (!Object.hasOwn(bo, k) || !jsonEqual(ao[k], bo[k])) return false
  }
  for (const k in bo) if (Object.hasOwn(bo, k) && bo[k] !== undefined) defined--
  return defined === 0
}
