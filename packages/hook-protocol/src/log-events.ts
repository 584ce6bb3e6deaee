// The hook log events (40-hooks.md A7): `hook/invoked` and `hook/result` bracket every hook run, joined
// to the session vocabulary by declaration merging. They are log-only (never model-visible) and may be
// appended between turns. No timing is recorded, so logs of scripted sessions stay deterministic.
import type { Session } from '@tack/session'
import type { HookDecision, HookDialect, HookOutput } from './types.ts'

/** Which handler ran, where. `handlerId` is stable: source, point, group and hook indexes. */
export interface HookInvocation {
  /** The turn the point fired in; absent between turns (e.g. SessionStart). */
  readonly turn?: number
  /** The dialect's event name, e.g. `PreToolUse`. */
  readonly point: string
  readonly dialect: HookDialect
  readonly handlerId: string
  readonly matcher?: string
  readonly toolCallId?: string
}

/** What a decision is recorded as: the hook's own, `stop` for `continue: false`, else `pass`. */
export type HookResultDecision = HookDecision | 'stop' | 'pass'

export interface HookResult {
  readonly turn?: number
  readonly point: string
  readonly dialect: HookDialect
  readonly handlerId: string
  readonly decision: HookResultDecision
  readonly exitCode?: number
  /** stderr cut to the bridge's `stderrSummaryMaxChars` (+ `…`); absent when stderr was empty. */
  readonly stderrSummary?: string
  readonly reason?: string
  /** For the user (TUI notice, headless stderr, `--json` event), never for the model. */
  readonly systemMessage?: string
  readonly timedOut?: true
  /** The run failed (timeout, abort, spawn error, or output the dialect calls a failure): no decision. */
  readonly failed?: true
  readonly aborted?: true
}

declare module '@tack/session' {
  interface SessionEventMap {
    /** A hook handler is about to run (40-hooks.md A7); its `hook/result` follows. */
    'hook/invoked': HookInvocation
    /** How a hook run ended: its decision (`stop` for continue:false, else `pass`), exit code, bounded stderr (A7). */
    'hook/result': HookResult
  }
}

/** Every event type this package's helpers append. */
export const HOOK_LOG_EVENTS = Object.freeze(['hook/invoked', 'hook/result'] as const)

/** The default bound of `stderrSummary` (bridges expose it as `stderrSummaryMaxChars`). */
export const DEFAULT_STDERR_SUMMARY_MAX_CHARS = 500

/**
 * `s` cut to `max` characters plus `…`; undefined when `s` is empty. A cut never splits a surrogate
 * pair, so the summary stays valid UTF-16 (and lossless JSON).
 */
export function summarizeStderr(s: string, max: number): string | undefined {
  if (!s) return undefined
  const limit = Math.max(1, Math.floor(max))
  if (s.length <= limit) return s
  let end = limit
  const last = s.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${s.slice(0, end)}…`
}

/** `output.decision`, else `stop` when `continue` is false, else `pass` (A7's derivation). */
export function deriveHookDecision(output: HookOutput): HookResultDecision {
  if (output.decision !== undefined) return output.decision
  if (output.continue === false) return 'stop'
  return 'pass'
}

export function appendHookInvoked(session: Session, invocation: HookInvocation): void {
  session.append('hook/invoked', stripUndefined({ ...invocation }))
}

export interface HookResultRecord {
  readonly invocation: HookInvocation
  readonly output: HookOutput
  readonly stderrSummaryMaxChars?: number
}

/** The `hook/result` payload for a run (exported so bridges and tests can derive without a session). */
export function hookResultOf(record: HookResultRecord): HookResult {
  const { invocation, output } = record
  const max = record.stderrSummaryMaxChars ?? DEFAULT_STDERR_SUMMARY_MAX_CHARS
  return stripUndefined({
    turn: invocation.turn,
    point: invocation.point,
    dialect: invocation.dialect,
    handlerId: invocation.handlerId,
    decision: deriveHookDecision(output),
    exitCode: output.exitCode,
    stderrSummary: summarizeStderr(output.stderr, max),
    reason: output.reason || undefined,
    systemMessage: output.systemMessage || undefined,
    timedOut: output.timedOut,
    failed: output.failed ? true : undefined,
    aborted: output.aborted,
  })
}

export function appendHookResult(session: Session, record: HookResultRecord): void {
  session.append('hook/result', hookResultOf(record))
}

function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key]
  return value
}
