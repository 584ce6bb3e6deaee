// The log-only session events the tools pipeline appends (TL-27, TL-31, TL-32, TL-35), merged into the
// session vocabulary. They are appended through `exec.agent.session` only when a call has an agent.
import type { JsonValue } from '@tack/session'

declare module '@tack/session' {
  interface SessionEventMap {
    /** A `tools/call` listener answered a call without running it (TL-31); the normal `tool/result` follows. */
    'tool/answered': { callId: string; by: string }
    /** A plugin replaced a call's arguments before its body ran (TL-32); `arguments` is what the body got. */
    'tool/arguments-rewritten': { callId: string; arguments: JsonValue; by: string }
    /**
     * How far a running call is (ToolCallContext.progress): for people only, never the model. At most
     * one per `plugins.tools.progressIntervalMs` per call, `message` cut at 500 characters.
     */
    'tool/progress': { callId: string; message?: string; progress?: number; total?: number }
    /** A `tools/pre-execute` decision asked for approval of a call (TL-35). */
    'approval/requested': { callId: string; reason?: string }
    /** How an approval request ended; `by: 'none'` when no approver was mounted or the wait was aborted (TL-35). */
    'approval/resolved': {
      callId: string
      decision: 'allow' | 'deny'
      by: 'user' | 'rule' | 'none'
      scope?: 'once' | 'session'
    }
    /**
     * One sub-call of a run_code program, appended when it settles (TL-27), between the parent's
     * `tool/call` and `tool/result`. `arguments` is what was dispatched (past the
     * registry's `dispatchArgumentsMaxChars`, its longest strings replaced by their size and SHA-256,
     * and `argumentsOmitted` naming the size and SHA-256 of the whole dispatched JSON text);
     * `resultSummary` is the result's text cut at the registry's `dispatchSummaryMaxChars`.
     */
    'tool/code-dispatch': {
      parentCallId: string
      subCallId: string
      name: string
      arguments: JsonValue
      argumentsOmitted?: { bytes: number; sha256: string }
      isError: boolean
      errorCode?: string
      resultSummary: string
    }
  }
}

/** Every event type this package appends. */
export const TOOLS_LOG_EVENTS = Object.freeze([
  'tool/answered',
  'tool/arguments-rewritten',
  'tool/progress',
  'approval/requested',
  'approval/resolved',
  'tool/code-dispatch',
] as const)
