// The `--json` contract of `tack run` (80-cli §6, issue 10 item 4), version 2: an opening `start` line,
// every session event of this run as it is appended, then a `result` line. apps/tack/README.md documents
// each field; a change that is not an addition bumps JSON_OUTPUT_VERSION.
import type { SessionEvent, TurnEndReason, Usage } from '@tack/session'

/** The version of the `--json` line format; bumped on any incompatible change (1 had no start line). */
export const JSON_OUTPUT_VERSION = 2

export interface StartInfo {
  readonly sessionId: string
  readonly model: string
  readonly workspace: string
  readonly permissionMode: string
  readonly tools: readonly string[]
  /** Set when the run continues a stored session (`-c`, `-r`): the events it already held. */
  readonly resumedFrom?: { readonly eventCount: number }
}

export function startLine(info: StartInfo): string {
  return `${JSON.stringify({
    type: 'start',
    version: JSON_OUTPUT_VERSION,
    sessionId: info.sessionId,
    model: info.model,
    workspace: info.workspace,
    permissionMode: info.permissionMode,
    tools: info.tools,
    resumed: info.resumedFrom !== undefined,
    ...(info.resumedFrom ? { priorEvents: info.resumedFrom.eventCount } : {}),
  })}\n`
}

export function eventLine(e: SessionEvent): string {
  return `${JSON.stringify({ type: e.type, seq: e.seq, time: e.time, data: e.data })}\n`
}

/** A tool call the permission layer (a mode, a rule, a hook, or no approver) refused. */
export interface PermissionDenial {
  readonly tool: string
  readonly callId: string
  /** The model's raw argument text. */
  readonly arguments: string
  readonly message?: string
}

/** What the result line reports about the events this run appended. */
export interface RunStats {
  readonly turns: number
  readonly steps: number
  readonly usage: Required<Usage>
  /** USD, present only when every step's model has a known price (`@tack/llm` catalogue). */
  readonly costUsd?: number
  readonly permissionDenials: readonly PermissionDenial[]
}

/**
 * Turns, steps, usage, cost and denials of `events`. Each step is priced at the model of the request
 * header in force (`agent/request` may change it per step), starting from `model`.
 */
const NO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 })

export function runStats(
  events: readonly SessionEvent[],
  model: string,
  costOf: (model: string, usage: Usage) => number | undefined,
): RunStats {
  let inForce = model
  const usage = sumUsage(events)
  let turns = 0
  let steps = 0
  let cost: number | undefined = 0
  const args = new Map<string, string>()
  const permissionDenials: PermissionDenial[] = []
  for (const e of events) {
    if (e.type === 'turn/start') turns++
    else if (e.type === 'step/start') steps++
    else if (e.type === 'request/header')
      inForce = (e as SessionEvent<'request/header'>).data.header.config.model
    else if (e.type === 'request/header-delta')
      inForce = (e as SessionEvent<'request/header-delta'>).data.config?.model ?? inForce
    else if (e.type === 'tool/call') {
      const d = (e as SessionEvent<'tool/call'>).data
      args.set(d.callId, d.arguments)
    } else if (e.type === 'tool/result') {
      const d = (e as SessionEvent<'tool/result'>).data
      if (d.error?.code === 'DENIED')
        permissionDenials.push({
          tool: d.name,
          callId: d.callId,
          arguments: args.get(d.callId) ?? '',
          ...(d.error.message ? { message: d.error.message } : {}),
        })
    } else if (e.type === 'assistant/message' && cost !== undefined) {
      // A step without usage still asks: an unknown price makes the whole cost unknown, never $0.
      const c = costOf(inForce, (e as SessionEvent<'assistant/message'>).data.usage ?? NO_USAGE)
      cost = c === undefined ? undefined : cost + c
    }
  }
  return { turns, steps, usage, ...(cost !== undefined ? { costUsd: cost } : {}), permissionDenials }
}

/** The error a result line names: absent for `completed` and for a hook's `rejected` (exit 0 both). */
export function resultError(reason: TurnEndReason): { code: string; message: string } | undefined {
  switch (reason.kind) {
    case 'completed':
    case 'rejected':
      return undefined
    case 'error':
      return { code: reason.code ?? 'TURN_ERROR', message: reason.message }
    case 'max-tokens':
      return { code: 'MAX_TOKENS', message: 'the model stopped at its output token limit' }
    case 'aborted':
      return { code: 'ABORTED', message: 'the turn was cancelled' }
    default:
      return { code: reason.kind.toUpperCase(), message: `the turn ended ${reason.kind}` }
  }
}

export interface ResultInfo {
  readonly sessionId: string
  readonly reason: TurnEndReason
  readonly answer: string
  readonly durationMs: number
  readonly stats: RunStats
}

export function resultLine(r: ResultInfo): string {
  const error = resultError(r.reason)
  return `${JSON.stringify({
    type: 'result',
    version: JSON_OUTPUT_VERSION,
    sessionId: r.sessionId,
    reason: r.reason,
    isError: error !== undefined,
    ...(error ? { error } : {}),
    answer: r.answer,
    durationMs: r.durationMs,
    turns: r.stats.turns,
    steps: r.stats.steps,
    usage: r.stats.usage,
    ...(r.stats.costUsd !== undefined ? { costUsd: r.stats.costUsd } : {}),
    permissionDenials: r.stats.permissionDenials,
  })}\n`
}

export function sumUsage(events: readonly SessionEvent[]): Required<Usage> {
  const total: Required<Usage> = {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  }
  for (const e of events) {
    if (e.type !== 'assistant/message') continue
    const u = (e as SessionEvent<'assistant/message'>).data.usage
    if (!u) continue
    total.inputTokens += u.inputTokens
    total.outputTokens += u.outputTokens
    total.cachedInputTokens += u.cachedInputTokens ?? 0
    total.cacheWriteTokens += u.cacheWriteTokens ?? 0
    total.reasoningTokens += u.reasoningTokens ?? 0
  }
  return total
}
