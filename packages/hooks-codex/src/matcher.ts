// The discovery-time half of Codex's matcher rules (protocols.md §B.4): a matcher that would be a
// regex and does not compile makes Codex skip its whole group, with a warning. Matching itself is
// `matchesMatcher('codex', …)` in @tack/hook-protocol; this file only decides validity, with the same
// reading of the matcher: absent, "" and "*" match all; only [A-Za-z0-9_|] is an exact list; anything
// else is an unanchored regex whose leading `(?i)` becomes the `i` flag.

const EXACT = /^[A-Za-z0-9_|]*$/

/** Why `matcher` is not a usable Codex matcher, or undefined when it is. */
export function codexMatcherProblem(matcher: string | undefined): string | undefined {
  if (matcher === undefined || matcher === '' || matcher === '*' || EXACT.test(matcher)) return undefined
  const caseless = matcher.startsWith('(?i)')
  try {
    new RegExp(caseless ? matcher.slice(4) : matcher, caseless ? 'i' : '')
    return undefined
  } catch (error) {
    return `invalid matcher regex ${JSON.stringify(matcher)}: ${error instanceof Error ? error.message : String(error)}`
  }
}
