// `@tack/hooks-claude/transcript`: the Claude-Code-shaped transcript on its own, for `tack sessions
// export --format claude-transcript` and other readers that need no bridge. The line format is
// @tack/claude-protocol's; the file mechanics (paths, keeping in step with the log) are this bridge's.
export {
  ClaudeTranscriptProjector,
  renderClaudeTranscript,
  renderTranscript,
  TRANSCRIPT_VERSION,
  type TranscriptOptions,
  transcriptUuid,
} from '@tack/claude-protocol'
export { sessionTranscriptPath, subagentTranscriptPath, TranscriptWriter } from './writer.ts'
