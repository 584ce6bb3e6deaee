// `tack run "/compact"` (with `-c`/`-r`, the session to compact): compacts the session instead of
// sending a prompt (35-compaction.md CP-2's on-demand trigger). `/compact <instructions>` tells the summary
// what to keep. The outcome is shaped like a turn's, so exit codes and `--json` result lines work the same.
import type { Agent } from '@tack/agent'
// for `ctx.compaction`'s type; erased at run time, so a run without `/compact` loads nothing of it
import type {} from '@tack/compaction'
import { blockText } from '@tack/session'
import type { TurnEndReason } from '@tack/session'
import type { Context } from 'cordis'
import { CliError } from '../errors.ts'
import type { RunInput } from './stdin-task.ts'

const COMMAND = /^\/compact(?:\s+([\s\S]*))?$/

/**
 * The instructions of a `/compact` command (empty for the bare command), or undefined for any other input.
 * Piped stdin (`cat focus.md | tack run -c "/compact"`) adds to the instructions.
 */
export function compactCommand(input: RunInput): string | undefined {
  const match = COMMAND.exec(input.task.trim())
  if (!match) return undefined
  const piped = typeof input.content === 'string' ? [] : input.content.slice(1).map(blockText)
  return [(match[1] ?? '').trim(), ...piped].filter(Boolean).join('\n')
}

export interface CompactOutcome {
  readonly reason: TurnEndReason
  /** One line for the user: what was compacted, or why nothing was. */
  readonly answer: string
}

export async function runCompactCommand(
  ctx: Context,
  agent: Agent,
  instructions: string,
  signal: AbortSignal,
): Promise<CompactOutcome> {
  if (!ctx.get('compaction'))
    throw new CliError(
      '/compact needs the compaction plugin, which the config turns off (plugins.compaction: false)',
    )
  const result = await ctx.compaction.compact(agent, { signal, ...(instructions ? { instructions } : {}) })
  const { compactionAnswer } = await import('@tack/compaction')
  const answer = compactionAnswer(result)
  if (answer.ok) return { reason: { kind: 'completed' }, answer: answer.text }
  return { reason: { kind: 'error', code: 'COMPACTION_FAILED', message: answer.error }, answer: '' }
}
