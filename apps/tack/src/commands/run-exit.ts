// How a headless turn's end becomes `tack run`'s exit code (issue 11.7). A prompt a hook blocked
// (`rejected`) exits 0 with the reason on stderr, as `claude -p` and `codex exec` do for a blocked prompt,
// so scripts that wrap either keep working; `--json` still carries `reason: {kind: "rejected", reason}`.
import type { TurnEndReason } from '@tack/session'
import { printable } from '../printable.ts'

/** 0 for a completed or rejected turn, 1 for any other end (error, max steps, cancel). */
export function runExitCode(reason: TurnEndReason): 0 | 1 {
  return reason.kind === 'completed' || reason.kind === 'rejected' ? 0 : 1
}

/** The stderr line `--json` adds for a rejected prompt (text mode already names every non-completed end). */
export function jsonRejectionNotice(reason: TurnEndReason): string | undefined {
  // the reason is the hook's own text (its stderr): shown escaped
  return reason.kind === 'rejected'
    ? `tack: the prompt was blocked by a hook: ${printable(reason.reason)}\n`
    : undefined
}
