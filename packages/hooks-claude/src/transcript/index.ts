// `@tack/hooks-claude/transcript`: the Claude-Code-shaped transcript on its own, for `tack sessions
// export --format claude-transcript` and other readers that need no bridge.
export {
  ClaudeTranscriptProjector,
  renderClaudeTranscript,
  renderTranscript,
  TRANSCRIPT_VERSION,
  type TranscriptOptions,
  transcriptUuid,
} from './lines.ts'
export { sessionTranscriptPath, subagentTranscriptPath, TranscriptWriter } from './writer.ts'
