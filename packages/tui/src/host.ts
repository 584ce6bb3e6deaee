// What the interactive UI needs from the command that starts it (apps/tack `tack`, `-c`, `-r`): a booted
// kernel with TuiPlugin loaded, the run's choices, and how to open a session. The UI never boots or
// resolves settings itself, so `tack` starts an agent exactly as `tack run` does.
import type { AgentHandle } from '@tack/agent'
import type { SessionSummary } from '@tack/session'
import type { Context } from 'cordis'

export interface SessionTarget {
  /** A stored session's id to resume; absent: a new session. */
  readonly resume?: string
  /** The new session replaces one the person cleared (`/clear`): its session-start source is `clear`. */
  readonly cleared?: true
}

export interface InteractiveHost {
  readonly ctx: Context
  readonly cwd: string
  readonly model: string
  readonly permissionMode: string
  /** Where the per-folder prompt history lives ($TACK_HOME/history). */
  readonly historyDir: string
  open(target: SessionTarget): Promise<AgentHandle>
  /** This folder's sessions, newest first (the resume picker). */
  sessions(): Promise<readonly SessionSummary[]>
  /** Sends plugin warnings to `sink` while the screen is up (stderr would tear it); `undefined` restores stderr. */
  redirectWarnings(sink: ((line: string) => void) | undefined): void
}
