// A command rule's wildcard (`npm run *`, `git ?ush`): `*` any run of characters (also none), `?` one,
// everything else itself. Matched by scanning, not by a RegExp of `.*`s: the pattern is the user's but
// the command is the model's, and a RegExp with several `.*` backtracks exponentially on a long command
// that almost matches (docs/decisions/0120-model-patterns-off-thread.md) — here the work is at most
// pattern length × command length.

/** Whether `text` as a whole matches the wildcard `pattern`. */
export function wildcardMatches(pattern: string, text: string): boolean {
  const p = [...pattern]
  const t = [...text]
  let i = 0
  let j = 0
  // the last `*` seen and where in `text` its run currently ends: on a mismatch, let it take one more
  let star = -1
  let starEnd = 0
  while (j < t.length) {
    if (i < p.length && p[i] !== '*' && (p[i] === '?' || p[i] === t[j])) {
      i++
      j++
    } else if (i < p.length && p[i] === '*') {
      star = i++
      starEnd = j
    } else if (star >= 0) {
      i = star + 1
      j = ++starEnd
    } else {
      return false
    }
  }
  while (p[i] === '*') i++
  return i === p.length
}
