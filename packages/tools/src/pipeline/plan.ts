// The dry run before an `ask` (docs/decisions/0300-approval-shows-the-change.md): when a pre-execute
// decision asks, the tool's `plan` says what the call would do before anyone is asked. A plan that
// fails (an edit of a file not read yet, an old_string that is not there) ends the call with the
// tool's own error, so nobody approves a call that cannot work; one that proceeds gives the question
// its preview, cut to `approvalPreviewMaxChars` (preview-bound.ts). Never throws: a plan that throws a
// `ToolFailure` failed, any other throw (a bug in the tool) costs only the preview, with a warning.
import type { Logger } from 'cordis'
import { ToolFailure } from '../errors.ts'
import type { ResultIntent } from '../presentation.ts'
import type { ToolCallContext, ToolDefinition, ToolExecution, ToolExecutionResult } from '../types.ts'
import { boundPreview } from './preview-bound.ts'
import { aborted, errorResult } from './results.ts'

/** What the dry run decided: ask (with what the call would change), or this result ends the call. */
export type Planned =
  | { readonly kind: 'ask'; readonly preview?: readonly ResultIntent[] }
  | { readonly kind: 'failed'; readonly result: ToolExecutionResult }

const ASK: Planned = Object.freeze({ kind: 'ask' })

export async function planCall(
  def: ToolDefinition,
  exec: ToolExecution,
  maxChars: number,
  logger: Logger,
): Promise<Planned> {
  if (!def.plan) return ASK
  // As the body would see the call once allowed: a path outside the workspace is the question, not a failure.
  const call: ToolCallContext = Object.freeze({
    callId: exec.callId,
    cwd: exec.cwd,
    signal: exec.signal,
    approval: 'user' as const,
    ...(exec.agent && { agent: exec.agent }),
  })
  let planned: unknown
  try {
    planned = await def.plan(structuredClone(exec.arguments), call)
  } catch (error) {
    if (exec.signal.aborted) return { kind: 'failed', result: aborted(exec) }
    if (error instanceof ToolFailure) return failed(exec, error.code, error.message)
    logger.warn('tool %s: its dry run threw (%s); asking without a preview', exec.name, messageOf(error))
    return ASK
  }
  if (exec.signal.aborted) return { kind: 'failed', result: aborted(exec) }
  const plan = planned as Record<string, unknown> | null
  if (plan?.action === 'fail' && typeof plan.code === 'string' && typeof plan.message === 'string')
    return failed(exec, plan.code, plan.message)
  if (plan?.action === 'proceed') {
    if (!Array.isArray(plan.preview) || plan.preview.length === 0 || maxChars === 0) return ASK
    return { kind: 'ask', preview: boundPreview(plan.preview as readonly ResultIntent[], maxChars) }
  }
  logger.warn(
    'tool %s: its dry run answered something that is not a plan; asking without a preview',
    exec.name,
  )
  return ASK
}

function failed(exec: ToolExecution, code: string, message: string): Planned {
  return { kind: 'failed', result: errorResult(exec, code, message, { name: 'ToolFailure', message }) }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
