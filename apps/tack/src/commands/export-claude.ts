// `--format claude-transcript`: the Claude-Code-shaped JSONL transcript, written by the Claude hooks
// bridge's transcript writer (40-hooks B9) so both stay one implementation.
import type { SessionEvent, SessionHeader } from '@tack/session'
import { CliError } from '../main.ts'

export async function exportClaudeTranscript(
  header: SessionHeader,
  events: readonly SessionEvent[],
): Promise<string> {
  let mod: { renderClaudeTranscript?: (h: SessionHeader, e: readonly SessionEvent[]) => string }
  try {
    mod = (await import('@tack/hooks-claude')) as typeof mod
  } catch {
    throw new CliError('the claude-transcript format needs @tack/hooks-claude, which is not installed')
  }
  if (!mod.renderClaudeTranscript)
    throw new CliError('this build of @tack/hooks-claude cannot render transcripts')
  return mod.renderClaudeTranscript(header, events)
}
