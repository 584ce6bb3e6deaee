// Matchers (40-hooks.md A5). Absent, "" and "*" match everything. A matcher made only of the
// dialect's "plain" characters is an exact, case-sensitive list of names; anything else is an
// unanchored JavaScript RegExp. An invalid pattern matches nothing and never throws.
import type { HookDialect } from './types.ts'

/** Claude Code: letters, digits, `_`, `-`, space, `,` and `|` (exact list split on `|` or `,`). */
const CLAUDE_PLAIN = /^[A-Za-z0-9_\- ,|]*$/
/** Codex: letters, digits, `_` and `|` (exact list split on `|`). */
const CODEX_PLAIN = /^[A-Za-z0-9_|]*$/

type Compiled =
  | { kind: 'all' }
  | { kind: 'names'; names: ReadonlySet<string> }
  | { kind: 'regex'; re?: RegExp }

/** Compiled matchers, keyed by dialect and text; settings files hold few distinct matchers. */
const cache = new Map<string, Compiled>()
const CACHE_LIMIT = 1000

function compile(dialect: HookDialect, matcher: string): Compiled {
  if (matcher === '' || matcher === '*') return { kind: 'all' }
  if (dialect === 'claude' && CLAUDE_PLAIN.test(matcher)) {
    return { kind: 'names', names: new Set(split(matcher, /[|,]/)) }
  }
  if (dialect === 'codex' && CODEX_PLAIN.test(matcher)) {
    return { kind: 'names', names: new Set(split(matcher, /\|/)) }
  }
  let source = matcher
  let flags = ''
  // Codex matchers are Rust regexes; their inline case-insensitive prefix becomes the `i` flag.
  if (dialect === 'codex' && source.startsWith('(?i)')) {
    source = source.slice(4)
    flags = 'i'
  }
  try {
    return { kind: 'regex', re: new RegExp(source, flags) }
  } catch {
    return { kind: 'regex' }
  }
}

function split(matcher: string, by: RegExp): string[] {
  return matcher
    .split(by)
    .map((name) => name.trim())
    .filter((name) => name.length > 0)
}

function compiled(dialect: HookDialect, matcher: string): Compiled {
  const key = `${dialect}\u0000${matcher}`
  let hit = cache.get(key)
  if (!hit) {
    hit = compile(dialect, matcher)
    if (cache.size >= CACHE_LIMIT) cache.clear()
    cache.set(key, hit)
  }
  return hit
}

/** Whether `matcher` selects any of `subjects` (e.g. a tool name and its aliases). */
export function matchesMatcher(
  dialect: HookDialect,
  matcher: string | undefined | null,
  subjects: readonly string[],
): boolean {
  if (matcher === undefined || matcher === null) return true
  if (typeof matcher !== 'string') return false
  const m = compiled(dialect, matcher)
  switch (m.kind) {
    case 'all':
      return true
    case 'names':
      return subjects.some((s) => m.names.has(s))
    case 'regex': {
      const re = m.re
      if (!re) return false
      return subjects.some((s) => {
        re.lastIndex = 0
        return re.test(s)
      })
    }
    default:
      return m satisfies never
  }
}

/** Whether `matcher` is a pattern the dialect cannot use (an invalid regex), for load-time warnings. */
export function isInvalidMatcher(dialect: HookDialect, matcher: string | undefined | null): boolean {
  if (typeof matcher !== 'string') return false
  const m = compiled(dialect, matcher)
  return m.kind === 'regex' && m.re === undefined
}
