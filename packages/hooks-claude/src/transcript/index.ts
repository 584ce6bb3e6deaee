// `@tack/hooks-claude/transcript`: where the bridge keeps Claude-Code-shaped transcripts and the writer
// that keeps them in step with the log. The line format itself (and `renderClaudeTranscript`, which
// `tack sessions export --format claude-transcript` uses) is @tack/claude-protocol's.
export { sessionTranscriptPath, subagentTranscriptPath, TranscriptWriter } from './writer.ts'
