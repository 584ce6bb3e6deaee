// `on(pattern, matcher, hook)` matchers (65-mod-host.md requirement 5): a partial of `e` at any depth;
// a leaf compares with `===` or, when a RegExp, tests `String(value)`; an array means any of; the key
// `plugin` is ignored (every mod is the only plugin of its tier in tack).
export type Matcher = unknown

function leafMatches(want: unknown, have: unknown): boolean {
  if (want instanceof RegExp) return have !== undefined && want.test(String(have))
  if (Array.isArray(want)) return want.some((w) => leafMatches(w, have))
  if (typeof want === 'object' && want !== null) {
    if (typeof have !== 'object' || have === null) return false
    return Object.entries(want).every(([k, w]) => leafMatches(w, (have as Record<string, unknown>)[k]))
  }
  return want === have
}

export function matches(matcher: Matcher, e: unknown): boolean {
  if (matcher === undefined) return true
  if (typeof matcher !== 'object' || matcher === null || Array.isArray(matcher) || matcher instanceof RegExp)
    return leafMatches(matcher, e)
  return Object.entries(matcher).every(
    ([k, w]) => k === 'plugin' || leafMatches(w, (e as Record<string, unknown> | null)?.[k]),
  )
}
