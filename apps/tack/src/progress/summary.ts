// The line `tack run` ends with on a terminal (and with -v in a log): how many tool calls ran and how
// many failed or were denied, the tokens, the cost and how long the run took
// (docs/decisions/0310-failures-stay-visible.md). A person who only reads the answer ("tests pass")
// still sees "1 failed" under it.
import type { Usage } from '@tack/session'

export interface CallCounts {
  calls: number
  failed: number
  denied: number
}

export interface RunSummary {
  readonly counts: CallCounts
  readonly usage: Usage
  /** USD; undefined when a step's model has no known price. */
  readonly costUsd?: number
  readonly durationMs: number
}

export function summaryText(s: RunSummary): string {
  const { calls, failed, denied } = s.counts
  const outcome = [failed > 0 ? `${failed} failed` : '', denied > 0 ? `${denied} denied` : '']
    .filter(Boolean)
    .join(', ')
  const parts = [
    `${calls} tool call${calls === 1 ? '' : 's'}${outcome ? ` (${outcome})` : ''}`,
    `${count(s.usage.inputTokens)} in / ${count(s.usage.outputTokens)} out tokens`,
    s.costUsd === undefined ? 'cost n/a' : `$${s.costUsd.toFixed(s.costUsd < 1 ? 4 : 2)}`,
    s.durationMs < 1000 ? `${Math.round(s.durationMs)} ms` : `${(s.durationMs / 1000).toFixed(1)} s`,
  ]
  return parts.join(' · ')
}

const count = (n: number) => n.toLocaleString('en-US')
