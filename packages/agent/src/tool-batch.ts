// `agent/tool-batch` (docs/decisions/0170-hook-event-seams.md): once every call of one assistant message
// has its result, listeners see the whole batch — each call with the result text the model gets — and
// may add context for the next step or end the turn after this one. Fired only for a step that made
// calls and was not aborted.
import { waterfall } from '@tack/kernel'
import type { HookContext, Session, SessionEvent } from '@tack/session'
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
  const info = Object.freeze({
    turn: rt.turn,
    step: rt.step,
    calls: Object.freeze(batchCalls(rt.session, calls)),
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

/** The context items a decision carries. */
export function batchContext(decision: ToolBatchDecision): readonly HookContext[] {
  return decision.additionalContext ?? []
}

/** Each call with its logged result, in the model's order (results are read back from the log). */
function batchCalls(session: Session, calls: readonly ToolCallBlock[]): ToolBatchCall[] {
  const wanted = new Set(calls.map((c) => c.callId))
  const results = new Map<string, SessionEvent<'tool/result'>['data']>()
  const events = session.events()
  for (let i = events.length - 1; i >= 0 && results.size < wanted.size; i--) {
    const e = events[i]
    if (e.type === 'step/start') break
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
