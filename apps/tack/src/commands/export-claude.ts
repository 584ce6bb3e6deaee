// `--format claude-transcript`: the Claude-Code-shaped JSONL transcript, written by the Claude hooks
// bridge's transcript writer (40-hooks B9) so both stay one implementation.
import type { SessionEvent, SessionHeader } from '@tack/session'

export async function exportClaudeTranscript(
  header: SessionHeader,
  events: readonly SessionEvent[],
): Promise<string> {
  const { renderClaudeTranscript } = await import('@tack/hooks-claude/transcript')
  return renderClaudeTranscript(header, events)
}
