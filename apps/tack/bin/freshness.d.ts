// Types of freshness.js (plain JavaScript so the launcher strips nothing).
export declare const MANIFEST_VERSION: number

export interface BuildState {
  /** What the launcher runs. */
  readonly use: 'build' | 'sources'
  /** Why, in words for `tack doctor`. */
  readonly why: string
  /** Files whose mtime moved and were compared by content. */
  readonly rehashed: number
}

export declare function buildState(root: URL, env?: NodeJS.ProcessEnv): BuildState
export declare function hashOf(url: URL): string
