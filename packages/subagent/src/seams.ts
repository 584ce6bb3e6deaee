// The seams the subagent tool fires, declared as typed cordis events (`docs/seams.md` is generated
// from these comments).
import type { Agent } from '@tack/agent'
import type { TurnEndReason } from '@tack/session'

export interface SubagentStartInfo {
  readonly callId: string
  readonly task: string
}

export interface SubagentEndInfo {
  readonly callId: string
  readonly reason: TurnEndReason
  readonly output?: string
}

declare module 'cordis' {
  interface Events {
    /** @mode emit — a child agent exists and has not been prompted yet. */
    'subagent/start'(parent: Agent, child: Agent, info: SubagentStartInfo): void
    /** @mode emit — the child's turn ended; the parent's `tool/result` has not been appended yet. */
    'subagent/end'(parent: Agent, child: Agent, info: SubagentEndInfo): void
  }
}
