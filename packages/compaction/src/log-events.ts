// The log-only events compaction appends (35-compaction.md CP-4), merged into the session vocabulary.
// The summary itself lands as a `context/message` that replaces the region, between `compact/summary`
// and `compact/end`, so a crash before it leaves the surface untouched (CP-5).
import type { Usage } from '@tack/session'

/** What started a compaction. */
export type CompactionTrigger = 'auto' | 'manual' | 'context-too-long'

declare module '@tack/session' {
  interface SessionEventMap {
    /** Compaction began: the surface run `fromSeq..toSeq` is being summarised; `pressure` is the estimated request size in tokens. */
    'compact/start': { fromSeq: number; toSeq: number; pressure: number; trigger: CompactionTrigger }
    /** The summary model answered with `text` (its usage when reported); the replace follows. */
    'compact/summary': { text: string; usage?: Usage }
    /** Compaction ended: `ok` when the summary replaced the region, else `error` says why nothing changed. */
    'compact/end': { ok: boolean; error?: string }
  }
}

/** Every event type this package appends. */
export const COMPACTION_LOG_EVENTS = Object.freeze([
  'compact/start',
  'compact/summary',
  'compact/end',
] as const)

/** The source of the summary's `context/message`. */
export const COMPACTION_SOURCE = Object.freeze({ kind: 'plugin', name: 'compaction' } as const)
