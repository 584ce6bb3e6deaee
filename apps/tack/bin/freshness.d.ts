// Types of freshness.js (plain JavaScript so the launcher strips nothing).
export declare const MANIFEST_VERSION: number

export interface BuildState {
  /** What the launcher runs. */
  readonly use: 'build' | 'sources'
  /** With `use: 'build'`: the command's entry in `apps/tack/build/` (`bundle/main.js`, or `main.js` unbundled). */
  readonly main?: string
  /** Why, in words for `tack doctor`. */
  readonly why: string
  /** Files whose mtime moved and were compared by content. */
  readonly rehashed: number
}

export declare function buildState(root: URL, env?: NodeJS.ProcessEnv): BuildState
export declare function hashOf(url: URL): string
