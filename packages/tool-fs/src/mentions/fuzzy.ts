// Fuzzy ranking of workspace paths for the prompt box's `@` completion (85-skills-and-commands.md I1):
// the typed characters must appear in the path in order, any case. A match scores higher when its
// characters run together, start a path segment or a word inside a name (after `/`, `.`, `-`, `_`, a
// lower-to-upper case step), fall in the file's own name rather than its folders, and when the path
// is shorter. Scoring is a greedy left-to-right pass per start, not a full alignment: cheap enough to
// rank tens of thousands of paths between two keys.

/** Higher is better; undefined when `query` is not a subsequence of `path`. */
export function fuzzyScore(path: string, query: string): number | undefined {
  if (query === '') return 0
  const lowerPath = path.toLowerCase()
  const lowerQuery = query.toLowerCase()
  const nameStart = path.lastIndexOf('/', path.length - 2) + 1
  let best: number | undefined
  // Try each place the first character occurs: `ab` in `x/alpha/ab.ts` should find the name's `ab`.
  for (let start = lowerPath.indexOf(lowerQuery[0] as string); start !== -1; ) {
    const score = scoreFrom(path, lowerPath, lowerQuery, start, nameStart)
    if (score === undefined) break // no later start can match either
    if (best === undefined || score > best) best = score
    start = lowerPath.indexOf(lowerQuery[0] as string, start + 1)
  }
  return best === undefined ? undefined : best - path.length / 100
}

function scoreFrom(
  path: string,
  lowerPath: string,
  lowerQuery: string,
  start: number,
  nameStart: number,
): number | undefined {
  let score = 0
  let at = start
  let previous = -2
  for (const char of lowerQuery) {
    at = lowerPath.indexOf(char, at)
    if (at === -1) return undefined
    score += 1
    if (at === previous + 1) score += 3
    if (startsWord(path, at)) score += 2
    if (at >= nameStart) score += 1
    previous = at
    at++
  }
  return score
}

function startsWord(path: string, at: number): boolean {
  if (at === 0) return true
  const before = path[at - 1] as string
  if (before === '/' || before === '.' || before === '-' || before === '_' || before === ' ') return true
  const here = path[at] as string
  return before === before.toLowerCase() && here !== here.toLowerCase()
}

/**
 * The best `max` of `paths` for `query`, best first; ties by fewer folders, then path order. An empty
 * query keeps the shallowest paths first, so `@` alone offers the top of the tree.
 */
export function rankPaths(paths: readonly string[], query: string, max: number): string[] {
  const scored: { path: string; score: number; depth: number }[] = []
  for (const path of paths) {
    const score = fuzzyScore(path, query)
    if (score !== undefined) scored.push({ path, score, depth: depthOf(path) })
  }
  scored.sort(
    (a, b) => b.score - a.score || a.depth - b.depth || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  )
  return scored.slice(0, max).map((entry) => entry.path)
}

function depthOf(path: string): number {
  let depth = 0
  for (let i = 0; i < path.length - 1; i++) if (path[i] === '/') depth++
  return depth
}
