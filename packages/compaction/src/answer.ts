// The one line a person reads after an on-demand compaction (`/compact` in `tack run` and over ACP), so
// every front end words the outcome the same way. A failure is not a line: callers report it as an error.
import type { CompactionResult } from './compactor.ts'

export type CompactionAnswer =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string }

export function compactionAnswer(result: CompactionResult): CompactionAnswer {
  if (result.compacted)
    return {
      ok: true,
      text: [
        `Compacted ${messages(result.summarised)} into a summary; kept the newest ${result.retained} (about ${result.pressure} tokens before).`,
        ...(result.notices ?? []),
      ].join('\n'),
    }
  if (result.reason.startsWith('nothing')) return { ok: true, text: `Nothing to compact: ${result.reason}.` }
  return { ok: false, error: result.reason }
}

const messages = (n: number) => (n === 1 ? '1 message' : `${n} messages`)
