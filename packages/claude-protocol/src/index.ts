// @tack/claude-protocol: Claude Code's own facts, in one leaf package (docs/decisions/0210-host-protocol-packages.md):
// tool names and aliases, `tool_input` / `tool_response` shapes, the API-error word, the transcript line
// format. The Claude hooks bridge, the mod host and the transcript writer read Claude through it; tools
// declare their Claude mapping (`host.claude`) with its types and helpers.
export { claudeApiError } from './api-error.ts'
export { type BashSegment, bashParts, bashSegments } from './bash-command.ts'
export { MAX_PAYLOAD_FILE_BYTES, readTextOrNull } from './file-text.ts'
export { noOutputExpected } from './silent-command.ts'
export {
  argumentsFromClaudeInput,
  type ClaudeBeforeCall,
  type ClaudeInputReading,
  type ClaudeToolInput,
  type ClaudeToolResult,
  claudeAbsolutePath,
  claudeDefined,
  claudeGenericResponse,
  claudeStructuredPatch,
  claudeToolResponse,
  claudeToolSubjects,
  withoutBlankEnds,
} from './tool-shapes.ts'
export {
  type ClaudeResponseCall,
  type ClaudeToolMapping,
  type ClaudeToolReader,
  claudeResponse,
} from './tool-view.ts'
export {
  ClaudeTranscriptProjector,
  renderClaudeTranscript,
  renderTranscript,
  TRANSCRIPT_VERSION,
  type TranscriptOptions,
  transcriptUuid,
} from './transcript.ts'
