// One turn (AL-6): turn/start → admit the batch → steps until the turn ends → turn/end with the
// reason that applies first (AL-19: disposed, aborted, error, max-tokens, completed). Besides the
// step limit, a turn ends on a repeated call (loop-detector.ts) or a spent token budget
// (token-budget.ts), checked between steps so every opened step closes first.
import { emitSafely, waterfall } from '@tack/kernel'
import type { FinishReason, TurnEndReason, TurnTrigger } from '@tack/session'
import { admitPrompt, pluginError } from './admission.ts'
import { errorCode, errorMessage, ModelCallError, TurnError } from './errors.ts'
import { LoopDetector, loopMessage } from './loop-detector.ts'
import { runStep, type StepOutcome, type StepRuntime } from './step.ts'
import { retryAfterStepError } from './step-error.ts'
import { TokenBudget } from './token-budget.ts'
import type { TurnFailure } from './seams.ts'
import type { ContinuationDecision, Prompt } from './types.ts'

export interface TurnRuntime extends StepRuntime {
  readonly trigger: TurnTrigger
  readonly batch: readonly Prompt[]
  readonly maxStepsPerTurn: number
  /** Identical calls in a row that end the turn `LOOP_DETECTED`; 0 = off (loop-detector.ts). */
  readonly maxIdenticalCalls: number
  /** Tokens one turn may use before it ends `TOKEN_BUDGET`; 0 = no budget (token-budget.ts). */
  readonly maxTurnTokens: number
  /** Why the turn's signal fired, if it did. */
  abortCause(): 'aborted' | 'disposed' | undefined
}

export async function runTurn(rt: TurnRuntime): Promise<TurnEndReason> {
  const { ctx, agent, session, turn } = rt
  session.append('turn/start', { turn, trigger: rt.trigger })
  let failure: TurnEndReason | undefined
  let origin: TurnFailure['origin'] = 'loop'
  let lastFinish: FinishReason | undefined
  let step = 0
  try {
    let firstBlock: string | undefined
    let admitted = 0
    // A cancel during admission records the rest of the batch as not admitted (admitPrompt), so every
    // prompt of a started turn is in its log.
    for (const prompt of rt.batch) {
      const r = await admitPrompt(ctx, agent, session, prompt, 'user/message', rt.signal)
      if (r.admitted) admitted++
      else firstBlock ??= r.reason
    }
    if (rt.batch.length > 0 && admitted === 0) {
      failure = { kind: 'rejected', reason: firstBlock ?? 'blocked' }
    } else {
      let continuations = 0
      const loops = new LoopDetector(rt.maxIdenticalCalls)
      const budget = new TokenBudget(rt.maxTurnTokens)
      let stepRetries = 0
      // Steering was held when the last step answered: the next step runs only if its drain admits some.
      let steeringOnly = false
      while (!rt.signal.aborted) {
        if (budget.exceeded()) {
          failure = { kind: 'error', code: 'TOKEN_BUDGET', message: budget.message(), step }
          break
        }
        if (step >= rt.maxStepsPerTurn) {
          failure = {
            kind: 'error',
            code: 'MAX_STEPS',
            message: `the turn reached maxStepsPerTurn (${rt.maxStepsPerTurn})`,
            step,
          }
          break
        }
        step++
        let outcome: StepOutcome
        try {
          // The step drains held input first (step.ts): the one place it enters the turn.
          outcome = await runStep(rt, step, steeringOnly)
        } catch (error) {
          if (!(await retryAfterStepError(rt, step, error, stepRetries))) throw error
          stepRetries++
          continue
        } finally {
          steeringOnly = false
        }
        if (outcome.kind === 'aborted') break
        if (outcome.kind === 'unsteered') {
          step-- // every held steering input was blocked: no step ran, decide on the last answer
        } else {
          lastFinish = outcome.finishReason
          budget.spend(outcome.usage)
          const repeat = loops.observe(outcome.calls)
          if (repeat) {
            failure = { kind: 'error', code: 'LOOP_DETECTED', message: loopMessage(repeat), step }
            break
          }
          if (outcome.stop !== undefined) break
          if (outcome.toolCalls > 0) continue
          if (rt.held.hasSteering()) {
            steeringOnly = true
            continue
          }
        }
        if (rt.signal.aborted || lastFinish === undefined) break
        const decision = await continuation(rt, step, lastFinish, continuations)
        if (decision.action === 'stop') break
        continuations++
        rt.held.hold({
          kind: 'continue',
          reason: decision.reason ?? 'Continue.',
          ...(decision.source ? { source: decision.source } : {}),
        })
      }
    }
  } catch (error) {
    failure = toErrorReason(error, step)
    origin = error instanceof ModelCallError ? 'model' : 'loop'
  }
  const reason = endReason(rt.abortCause(), failure, lastFinish)
  session.append('turn/end', { turn, reason })
  if (reason.kind === 'error') {
    const failed: TurnFailure = Object.freeze({
      turn,
      ...(reason.step !== undefined ? { step: reason.step } : {}),
      code: reason.code ?? 'INTERNAL_ERROR',
      message: reason.message,
      origin,
    })
    emitSafely(ctx, 'agent/turn-failed', agent, failed)
  }
  return reason
}

async function continuation(
  rt: TurnRuntime,
  step: number,
  finishReason: FinishReason,
  continuations: number,
): Promise<ContinuationDecision> {
  let decision: ContinuationDecision
  try {
    decision = await waterfall(
      rt.ctx,
      'agent/turn-continuation',
      [rt.agent, Object.freeze({ turn: rt.turn, step, finishReason, continuations })],
      () => ({ action: 'stop' }),
    )
  } catch (error) {
    throw pluginError('agent/turn-continuation', error)
  }
  switch (decision?.action) {
    case 'stop':
    case 'continue':
      return decision
    default:
      throw new TurnError('PLUGIN_ERROR', 'agent/turn-continuation returned an invalid decision')
  }
}

function toErrorReason(error: unknown, step: number): TurnEndReason {
  const code = error instanceof TurnError ? error.code : errorCode(error, 'INTERNAL_ERROR')
  return { kind: 'error', code, message: errorMessage(error), ...(step > 0 ? { step } : {}) }
}

/** AL-19 precedence; `rejected` only arises from a fully blocked batch. */
function endReason(
  abort: 'aborted' | 'disposed' | undefined,
  failure: TurnEndReason | undefined,
  lastFinish: FinishReason | undefined,
): TurnEndReason {
  if (abort === 'disposed') return { kind: 'disposed' }
  if (abort === 'aborted') return { kind: 'aborted' }
  if (failure) return failure
  if (lastFinish === 'length') return { kind: 'max-tokens' }
  return { kind: 'completed' }
}
