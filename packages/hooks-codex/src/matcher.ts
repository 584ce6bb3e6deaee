// The discovery-time half of Codex's matcher rules (protocols.md §B.4): a matcher that would be a regex
// and does not compile makes Codex skip its whole group, with a warning. The reading of a matcher
// (and matching itself) is @tack/hook-protocol's `codex` dialect; this only words the problem.
import { isInvalidMatcher } from '@tack/hook-protocol'

/** Why `matcher` is not a usable Codex matcher, or undefined when it is. */
export function codexMatcherProblem(matcher: string | undefined): string | undefined {
  if (!isInvalidMatcher('codex', matcher)) return undefined
  return `invalid matcher regex ${JSON.stringify(matcher)}`
}
