// `--format claude-transcript`: the Claude-Code-shaped JSONL transcript, in @tack/claude-protocol's line
// format, which the Claude hooks bridge's transcript writer uses too (40-hooks B9): one implementation.
// Tool names and inputs come from the tools' own declarations (`host.claude`), as in the live transcript.
import type { SessionEvent, SessionHeader } from '@tack/session'
import { HostMappingReader, type ToolRegistry } from '@tack/tools'

export async function exportClaudeTranscript(
  header: SessionHeader,
  events: readonly SessionEvent[],
  tools: Pick<ToolRegistry, 'get'> | undefined,
): Promise<string> {
  const { renderClaudeTranscript } = await import('@tack/claude-protocol')
  return renderClaudeTranscript(header, events, tools && new HostMappingReader('claude', tools))
}
