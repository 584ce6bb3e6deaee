// `onApproval` as the session's approver: a plugin providing `ctx.approval` (the service the TUI and
// ACP provide, packages/tools/src/pipeline/approval.ts), so the permission layer asks instead of
// denying, and the pipeline logs `approval/requested` and `approval/resolved` around each answer as it
// does for a person's. Without `onApproval` none is provided and an ask is denied, as in `tack run`.
// The request is output like the events: its input, reason and preview are redacted copies (redaction.ts);
// the call runs with its own arguments.
import type { ApprovalAnswer, ApprovalRequest as PipelineRequest } from '@tack/tools'
import type { Context } from 'cordis'
import type { ApprovalDecision, ApprovalRequest } from './api.ts'
import { redactedCopy } from './redaction.ts'

type OnApproval = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>
type Redact = (text: string) => string

/** Loads the approver into `ctx`; answers how to unload it. */
export async function provideApprover(
  ctx: Context,
  sessionId: () => string,
  onApproval: OnApproval,
  redact: Redact,
) {
  const plugin = {
    name: 'library-approval',
    apply(ctx: Context) {
      ctx.provide('approval', {
        request: async (req: PipelineRequest): Promise<ApprovalAnswer> => {
          const decision = await onApproval(Object.freeze(requestOf(req, sessionId(), redact)))
          return answerOf(decision)
        },
      })
    },
  }
  const fiber = ctx.plugin(plugin)
  await fiber.await()
  return () => fiber.dispose()
}

function requestOf(req: PipelineRequest, sessionId: string, redact: Redact): ApprovalRequest {
  return {
    sessionId,
    tool: req.exec.name,
    callId: req.exec.callId,
    input: redactedCopy(req.exec.arguments, redact),
    access: req.access,
    ...(req.reason !== undefined ? { reason: redact(req.reason) } : {}),
    ...(req.preview ? { preview: redactedCopy(req.preview, redact) } : {}),
    signal: req.signal,
  }
}

/** The caller's decision as the pipeline's answer; anything else is a denial that says why. */
function answerOf(decision: ApprovalDecision): ApprovalAnswer {
  if (decision?.decision === 'allow') return { action: 'allow', by: 'user' }
  if (decision?.decision === 'deny')
    return {
      action: 'deny',
      by: 'user',
      ...(typeof decision.reason === 'string' && decision.reason ? { reason: decision.reason } : {}),
    }
  return {
    action: 'deny',
    by: 'none',
    reason: `onApproval answered ${JSON.stringify(decision)}, which is neither {decision: 'allow'} nor {decision: 'deny'}, so the call was denied.`,
  }
}
