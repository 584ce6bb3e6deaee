// The calls a card's call made inside itself (docs/decisions/0310-failures-stay-visible.md): a run_code
// program's sub-calls (its `tool/code-dispatch` events, in the session's log) and a subagent's own calls
// (its child session's `tool/call` and `tool/result`, which the app forwards). A card lists the latest
// ones with their status, and counts the earlier ones and how many of those failed, so a program of a
// hundred calls stays a card of a few lines and a failure among them is never dropped unsaid.

import { oneLine } from './key-argument.ts'

export type InnerStatus = 'running' | 'done' | 'failed' | 'denied'

export interface InnerCall {
  readonly id: string
  /** The tool's name and key argument, escaped. */
  readonly label: string
  status: InnerStatus
  /** Why it failed or was denied: one line. */
  detail?: string
}

export interface InnerCalls {
  /** The latest calls, oldest first, at most the view's `innerCallsShown`. */
  readonly shown: InnerCall[]
  /** Calls that scrolled off the front of `shown`. */
  earlier: number
  /** How many of those failed or were denied. */
  earlierFailed: number
}

/** Adds `call` to `inner` (made when absent), keeping at most `max` shown. */
export function addInner(inner: InnerCalls | undefined, call: InnerCall, max: number): InnerCalls {
  const list = inner ?? { shown: [], earlier: 0, earlierFailed: 0 }
  list.shown.push(call)
  while (list.shown.length > max) {
    const dropped = list.shown.shift()
    list.earlier++
    if (dropped?.status === 'failed' || dropped?.status === 'denied') list.earlierFailed++
  }
  return list
}

/** Settles the shown call `id`; one already scrolled off is counted (a failure among the earlier ones). */
export function settleInner(
  inner: InnerCalls | undefined,
  id: string,
  status: Exclude<InnerStatus, 'running'>,
  detail?: string,
): void {
  if (!inner) return
  const call = inner.shown.find((c) => c.id === id)
  if (call) {
    call.status = status
    if (detail) call.detail = detail
  } else if (status !== 'done') inner.earlierFailed++
}

/** Calls still running when their parent ended did not finish. */
export function endInner(inner: InnerCalls | undefined): void {
  for (const call of inner?.shown ?? []) if (call.status === 'running') call.status = 'failed'
}

/** A run_code sub-call as its `tool/code-dispatch` event logged it (settled: it has its status). */
export function dispatchedCall(data: Record<string, unknown>, label: string): InnerCall {
  const failed = data.isError === true
  const summary = oneLine(String(data.resultSummary ?? '').split('\n', 1)[0] ?? '')
  return {
    id: String(data.subCallId),
    label,
    status: data.errorCode === 'DENIED' ? 'denied' : failed ? 'failed' : 'done',
    ...(failed ? { detail: `${String(data.errorCode ?? 'error')}${summary ? `: ${summary}` : ''}` } : {}),
  }
}
