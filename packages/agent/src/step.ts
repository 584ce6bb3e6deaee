// One step (AL-7): drain → system prompt → session prefix → pre-step → boundary + step/start →
// request config → header + flush → llm/stream → chunks → assistant/message → tool calls (read-only
// ones side by side: parallel-calls.ts) → buffered post-execute context → agent/tool-batch (its
// context after the calls' own) → step/end. The step always
// closes what it opened: every tool-call block gets a result and an opened step gets its `step/end`.
//
// The drain at the top is the ONE place held input enters a running turn (turn.ts never drains): in
// arrival order, steering is admitted through `agent/prompt-submit` as `steering/message`, injections
// become `context/message`, and a forced continuation the turn held becomes `steering/message`. The turn
// asks for a step in three cases: its first step (after the batch is admitted), after a step with tool
// calls, and after a step that answered while steering was held or after `agent/turn-continuation`
// held a continuation. A step asked for only because steering was held (`steeringOnly`) ends before
// anything is logged when every steering input was blocked at admission: the turn then decides on the
// previous answer as if nothing had arrived, so a blocked prompt never costs a model call. Input that
// arrives after the turn's last drain is settled by `settleLeftovers` after `turn/end` (AL-4).
import { deepFreeze, serial, waterfall } from '@tack/kernel'
import {
  type FinishReason,
  type LlmCallConfig,
  type Message,
  normalizeHeader,
  registerRequestOrigin,
  type Session,
  type Usage,
} from '@tack/session'
import type { Context } from 'cordis'
import { appendContext, drainHeld, type InputQueue, pluginError } from './admission.ts'
import { errorCode, errorMessage, ModelCallError, TurnError } from './errors.ts'
import { callModel } from './model-adapters.ts'
import { abortable } from './abortable.ts'
import { runToolCalls, type ToolCallBlock } from './parallel-calls.ts'
import { toolBatch } from './tool-batch.ts'
import type { Agent, LlmFinal, LlmRequest } from './types.ts'

/** What a step needs from its agent and turn. */
export interface StepRuntime {
  readonly ctx: Context
  readonly agent: Agent
  readonly session: Session
  readonly turn: number
  readonly signal: AbortSignal
  readonly baseConfig: LlmCallConfig
  /** The agent's held input: each step drains it first (the only drain); the turn holds forced continuations in it. */
  readonly held: InputQueue
  /** Read-only tool calls of one message that may run at once (`docs/decisions/0063-parallel-tool-calls.md`). */
  readonly maxParallelTools: number
  sessionPrefix(system: string): Promise<readonly Message[]>
}

export type StepOutcome =
  | {
      kind: 'done'
      toolCalls: number
      /** The message's tool-call blocks, in the model's order (the loop detector reads them). */
      calls: readonly ToolCallBlock[]
      finishReason: FinishReason
      usage?: Usage
      /** An `agent/tool-batch` listener ended the turn after this step, for this reason. */
      stop?: string
    }
  /** The turn's signal fired; what was logged is closed. */
  | { kind: 'aborted' }
  /** A `steeringOnly` step whose drain admitted no steering: nothing was logged, no step ran. */
  | { kind: 'unsteered' }

export async function runStep(rt: StepRuntime, step: number, steeringOnly = false): Promise<StepOutcome> {
  const { ctx, agent, session, turn, signal } = rt
  const admittedSteering = await drainHeld(ctx, agent, session, rt.held, signal)
  if (steeringOnly && admittedSteering === 0) return { kind: 'unsteered' }

  let system: string
  try {
    system = ctx.systemPrompt.assemble(agent)
  } catch (error) {
    throw new TurnError(errorCode(error, 'SYSTEM_PROMPT_FAILED'), errorMessage(error), error)
  }
  const prefix = await rt.sessionPrefix(system)
  try {
    await serial(ctx, 'agent/pre-step', agent, Object.freeze({ turn, step, system, prefix, signal }))
  } catch (error) {
    throw pluginError('agent/pre-step', error)
  }
  if (signal.aborted) return { kind: 'aborted' }

  // The boundary and `step/start` share one synchronous frame (SL-18).
  const boundary = session.deriveMessages()
  session.append('step/start', { turn, step })
  let finishReason: FinishReason | undefined
  const calls: ToolCallBlock[] = []
  const answered = new Set<string>()
  try {
    let config: LlmCallConfig
    try {
      config = await waterfall(
        ctx,
        'agent/request',
        [agent, Object.freeze({ turn, step }), rt.baseConfig],
        (_agent, _info, given) => given,
      )
    } catch (error) {
      throw pluginError('agent/request', error)
    }
    const header = normalizeHeader({ config, system, tools: ctx.tools.schemas(agent), messagePrefix: prefix })
    session.recordRequestHeader(header)
    await flushOrFail(session)
    const request: LlmRequest = deepFreeze({
      config: header.config,
      ...(header.system !== undefined ? { system: header.system } : {}),
      ...(header.tools !== undefined ? { tools: header.tools } : {}),
      messages: [...prefix, ...boundary],
    })
    registerRequestOrigin(request, session)

    const final = await streamOnce(rt, step, request)
    if (!final) return { kind: 'aborted' }
    finishReason = final.finishReason
    session.append('assistant/message', {
      turn,
      step,
      content: final.content,
      finishReason: final.finishReason,
      ...(final.usage ? { usage: final.usage } : {}),
    })
    for (const block of final.content) if (block.type === 'tool-call') calls.push(block)

    const contexts = await runToolCalls(
      {
        ctx,
        agent,
        session,
        turn,
        step,
        signal,
        maxParallelTools: rt.maxParallelTools,
        flush: () => flushOrFail(session),
      },
      calls,
      answered,
    )
    closeCalls(session, calls, answered, signal.aborted ? 'ABORTED' : undefined)
    if (signal.aborted) return { kind: 'aborted' }
    for (const item of contexts) appendContext(session, item)
    const batch =
      calls.length > 0 ? await toolBatch({ ctx, agent, session, turn, step, signal }, calls) : undefined
    if (signal.aborted) return { kind: 'aborted' }
    for (const item of batch?.additionalContext ?? []) appendContext(session, item)
    return {
      kind: 'done',
      toolCalls: calls.length,
      calls,
      finishReason: final.finishReason,
      ...(final.usage ? { usage: final.usage } : {}),
      ...(batch?.action === 'stop' ? { stop: batch.reason } : {}),
    }
  } catch (error) {
    closeCalls(session, calls, answered, errorCode(error, 'INTERRUPTED'))
    throw error
  } finally {
    session.append('step/end', { turn, step, ...(finishReason ? { finishReason } : {}) })
  }
}

/** Streams one response, logging each chunk before reading the next; undefined when aborted. */
async function streamOnce(rt: StepRuntime, step: number, request: LlmRequest): Promise<LlmFinal | undefined> {
  const { ctx, session, turn, signal } = rt
  try {
    const response = await callModel(ctx, request, signal)
    // `final` is awaited below; this only keeps an early rejection from being reported as unhandled.
    response.final.catch(() => {})
    for await (const chunk of abortable(response.chunks, signal)) {
      session.append('assistant/chunk', { turn, step, chunk })
    }
    if (signal.aborted) return undefined
    return await response.final
  } catch (error) {
    if (signal.aborted) return undefined
    if (error instanceof TurnError) throw error
    if ((error as Error)?.name === 'SeamError') {
      // A broken log invariant is not a plugin's bad day: name it so harnesses fail loudly.
      const cause = (error as Error).cause as Error | undefined
      if (cause?.name === 'InvariantError') throw new TurnError('INVARIANT_VIOLATED', cause.message, cause)
      throw pluginError('llm/stream', error)
    }
    throw new ModelCallError(errorCode(error, 'MODEL_ERROR'), errorMessage(error), error)
  }
}

/** Gives every tool-call block without a result an error result, so the surface stays paired. */
function closeCalls(
  session: Session,
  calls: readonly ToolCallBlock[],
  answered: Set<string>,
  code?: string,
): void {
  for (const call of calls) {
    if (answered.has(call.callId)) continue
    answered.add(call.callId)
    const why = code ?? 'INTERRUPTED'
    const text =
      why === 'ABORTED' ? 'The tool call was cancelled before it ran.' : `The tool call did not run (${why}).`
    session.append('tool/result', {
      callId: call.callId,
      name: call.name,
      content: [{ type: 'text', text }],
      isError: true,
      error: { name: 'ToolError', code: why },
    })
  }
}

/** A durability point: a failed flush fails closed (SL-24). */
async function flushOrFail(session: Session): Promise<void> {
  try {
    await session.flush()
  } catch (error) {
    throw new TurnError('PERSIST_FAILED', `could not persist the session: ${errorMessage(error)}`, error)
  }
}
