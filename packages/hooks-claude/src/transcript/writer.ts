// Keeping transcripts in step with the log (40-hooks.md B9): the file mechanics are the shared
// `TranscriptFile` of `@tack/hook-protocol`; this names Claude Code's paths and supplies its lines.
import { join } from 'node:path'
import { safeFileName, TranscriptFile } from '@tack/hook-protocol'
import type { Session } from '@tack/session'
import { ClaudeTranscriptProjector, type TranscriptOptions } from '@tack/claude-protocol'

/** `<dir>/<session id>.jsonl` for a top-level session. */
export function sessionTranscriptPath(dir: string, sessionId: string): string {
  return join(dir, `${safeFileName(sessionId)}.jsonl`)
}

/** `<dir>/<root session id>/subagents/agent-<agent id>.jsonl` for a subagent. */
export function subagentTranscriptPath(dir: string, rootSessionId: string, agentId: string): string {
  return join(dir, safeFileName(rootSessionId), 'subagents', `agent-${safeFileName(agentId)}.jsonl`)
}

/** The Claude-Code-shaped transcript of one session, brought up to date by `sync()`. */
export class TranscriptWriter extends TranscriptFile {
  constructor(path: string, session: Session, opts: TranscriptOptions) {
    super(path, session, new ClaudeTranscriptProjector(opts))
  }
}
