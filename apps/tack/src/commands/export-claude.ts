// `--format claude-transcript`: the Claude-Code-shaped JSONL transcript, written by the Claude hooks
// bridge's transcript writer (40-hooks B9) so both stay one implementation.
// Tool names and inputs come from the tools' own declarations (`host.claude`), as in the live transcript.
import type { SessionEvent, SessionHeader } from '@tack/session'
import type { ToolRegistry } from '@tack/tools'

export async function exportClaudeTranscript(
  header: SessionHeader,
  events: readonly SessionEvent[],
  tools: Pick<ToolRegistry, 'get'> | undefined,
): Promise<string> {
  const { renderClaudeTranscript } = await import('@tack/hooks-claude/transcript')
  return renderClaudeTranscript(header, events, tools)
}
