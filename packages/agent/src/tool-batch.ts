// `agent/tool-batch` (docs/decisions/0170-hook-event-seams.md): once every call of one assistant message
// has its result, listeners see the whole batch — each call with the result text the model gets — and
// may add context for the next step or end the turn after this one. Fired only for a step that made
// calls and was not aborted.
import { waterfall } from '@tack/kernel'
import type { Session, SessionEvent } from '@tack/session'
import { pluginError } from './admission.ts'
import { TurnError } from './errors.ts'
import type { CallsRuntime, ToolCallBlock } from './parallel-calls.ts'
import type { ToolBatchCall, ToolBatchDecision } from './seams.ts'

const CONTINUE: ToolBatchDecision = Object.freeze({ action: 'continue' })

/** What the batch needs from its step: the step's runtime for its calls, less what only running them needs. */
export type BatchRuntime = Omit<CallsRuntime, 'maxParallelTools' | 'flush'>

/** Raises `agent/tool-batch` for `calls`; the decision, validated (a bad one ends the turn `PLUGIN_ERROR`). */
export async function toolBatch(
  rt: BatchRuntime,
  calls: readonly ToolCallBlock[],
): Promise<ToolBatchDecision> {
  // Built on first read: a listener with nothing configured (the hook bridges without a PostToolBatch
  // hook) returns `next()` without looking, and building parses every call's arguments. The log is
  // append-only, so reading it up to its length now gives the same batch whenever `calls` is read.
  const end = rt.session.length
  let built: readonly ToolBatchCall[] | undefined
  const info = Object.freeze({
    turn: rt.turn,
    step: rt.step,
    get calls(): readonly ToolBatchCall[] {
      built ??= Object.freeze(batchCalls(rt.session, end, calls))
      return built
    },
    signal: rt.signal,
  })
  let decision: ToolBatchDecision
  try {
    decision = await waterfall(rt.ctx, 'agent/tool-batch', [rt.agent, info], () => CONTINUE)
  } catch (error) {
    throw pluginError('agent/tool-batch', error)
  }
  switch (decision?.action) {
    case 'continue':
      return decision
    case 'stop':
      return { ...decision, reason: String(decision.reason ?? '') }
    default:
      throw new TurnError('PLUGIN_ERROR', 'agent/tool-batch returned an invalid decision')
  }
}

/** Each call with its logged result, in the model's order (results are read back from the log). */
function batchCalls(session: Session, end: number, calls: readonly ToolCallBlock[]): ToolBatchCall[] {
  const wanted = new Set(calls.map((c) => c.callId))
  const results = new Map<string, SessionEvent<'tool/result'>['data']>()
  // Backwards from the end with `eventAt`: `events()` would copy the whole log (docs/decisions/0066-flat-memory.md).
  for (let i = end - 1; i >= 0 && results.size < wanted.size; i--) {
    const e = session.eventAt(i)
    if (!e || e.type === 'step/start') break
    if (e.type !== 'tool/result') continue
    const data = (e as SessionEvent<'tool/result'>).data
    if (wanted.has(data.callId) && !results.has(data.callId)) results.set(data.callId, data)
  }
  return calls.map((c) => {
    const r = results.get(c.callId)
    return Object.freeze({
      callId: c.callId,
      name: c.name,
      arguments: parsed(c.arguments),
      output: r ? r.content.map((b) => ('text' in b ? b.text : '')).join('\n') : '',
      isError: r?.isError ?? true,
    })
  })
}

function parsed(text: unknown): unknown {
  if (typeof text !== 'string') return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
