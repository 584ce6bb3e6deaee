// A readable location for the first difference between two JSON-like values, for invariant messages.

const show = (v: unknown) => {
  if (v === undefined) return 'absent'
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 120 ? `${s.slice(0, 117)}…` : s
}

/** `undefined` when equal (undefined-valued properties count as absent), else `path: expected …, got …`. */
export function firstDifference(expected: unknown, actual: unknown, path = ''): string | undefined {
  if (expected === actual) return undefined
  const where = path || '(root)'
  if (typeof expected !== 'object' || typeof actual !== 'object' || expected === null || actual === null) {
    return `${where}: expected ${show(expected)}, got ${show(actual)}`
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) {
    return `${where}: expected ${Array.isArray(expected) ? 'an array' : 'an object'}, got ${show(actual)}`
  }
  if (Array.isArray(expected)) {
    const a = actual as unknown[]
    const n = Math.min(expected.length, a.length)
    for (let i = 0; i < n; i++) {
      const d = firstDifference(expected[i], a[i], `${path}[${i}]`)
      if (d) return d
    }
    if (expected.length !== a.length) {
      const extra = a.length > expected.length ? `extra ${show(a[n])}` : `missing ${show(expected[n])}`
      return `${where}: expected length ${expected.length}, got ${a.length} (first ${extra} at [${n}])`
    }
    return undefined
  }
  const e = expected as Record<string, unknown>
  const g = actual as Record<string, unknown>
  const keys = new Set([...Object.keys(e), ...Object.keys(g)])
  for (const key of keys) {
    const d = firstDifference(e[key], g[key], path ? `${path}.${key}` : key)
    if (d) return d
  }
  return undefined
}
