// After a failed step (20-agent-loop.md AL-7, AL-18): `agent/step-error` may repair the cause between
// steps and ask for one more step, so a recoverable failure (a provider's "context too long" answered by
// compaction, 35-compaction.md) does not end the turn. The failed step is already closed in the log.
import { waterfall } from '@tack/kernel'
import { pluginError } from './admission.ts'
import { errorCode, errorMessage, TurnError } from './errors.ts'
import type { StepRuntime } from './step.ts'

/** Codes no listener may retry: the log could not be written, or a seam or invariant broke. */
const FINAL_CODES: ReadonlySet<string> = new Set(['PERSIST_FAILED', 'PLUGIN_ERROR', 'INVARIANT_VIOLATED'])

/** Whether a listener asked to run another step after `error` ended step `step`. */
export async function retryAfterStepError(
  rt: StepRuntime,
  step: number,
  error: unknown,
  retries: number,
): Promise<boolean> {
  const code = error instanceof TurnError ? error.code : errorCode(error, 'INTERNAL_ERROR')
  if (rt.signal.aborted || FINAL_CODES.has(code)) return false
  let decision: { action: string } | undefined
  try {
    decision = await waterfall(
      rt.ctx,
      'agent/step-error',
      [
        rt.agent,
        Object.freeze({
          turn: rt.turn,
          step,
          code,
          message: errorMessage(error),
          retries,
          signal: rt.signal,
        }),
      ],
      () => ({ action: 'fail' as const }),
    )
  } catch (listenerError) {
    throw pluginError('agent/step-error', listenerError)
  }
  if (decision?.action !== 'fail' && decision?.action !== 'retry')
    throw new TurnError('PLUGIN_ERROR', 'agent/step-error returned an invalid decision')
  return decision.action === 'retry' && !rt.signal.aborted
}
