// The log-only events a library session appends, merged into the session vocabulary (no model sees them).
declare module '@tack/session' {
  interface SessionEventMap {
    /** A library caller's labels for the session (`metadata` of openSession, docs/library.md: a job, the attempt it repeats), before its next turn. */
    'session/metadata': Record<string, string>
    /** A library session's `maxCostUsd` stopped the running turn, spent past the limit (docs/library.md); the turn then ends `aborted`. */
    'session/limit': { kind: 'max-cost'; limitUsd: number; spentUsd: number }
  }
}

export const LIBRARY_LOG_EVENTS = Object.freeze(['session/metadata', 'session/limit'] as const)
