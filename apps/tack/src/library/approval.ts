// `onApproval` as the session's approver: a plugin providing `ctx.approval` (the service the TUI and
// ACP provide, packages/tools/src/pipeline/approval.ts), so the permission layer asks instead of
// denying, and the pipeline logs `approval/requested` and `approval/resolved` around each answer as it
// does for a person's. Without `onApproval` none is provided and an ask is denied, as in `tack run`.
import type { ApprovalAnswer, ApprovalRequest as PipelineRequest } from '@tack/tools'
import type { Context } from 'cordis'
import type { ApprovalDecision, ApprovalRequest } from './api.ts'

type OnApproval = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>

/** Loads the approver into `ctx`; answers how to unload it. */
export async function provideApprover(ctx: Context, sessionId: () => string, onApproval: OnApproval) {
  const plugin = {
    name: 'library-approval',
    apply(ctx: Context) {
      ctx.provide('approval', {
        request: async (req: PipelineRequest): Promise<ApprovalAnswer> => {
          const decision = await onApproval(Object.freeze(requestOf(req, sessionId())))
          return answerOf(decision)
        },
      })
    },
  }
  const fiber = ctx.plugin(plugin)
  await fiber.await()
  return () => fiber.dispose()
}

function requestOf(req: PipelineRequest, sessionId: string): ApprovalRequest {
  return {
    sessionId,
    tool: req.exec.name,
    callId: req.exec.callId,
    input: req.exec.arguments,
    access: req.access,
    ...(req.reason !== undefined ? { reason: req.reason } : {}),
    ...(req.preview ? { preview: req.preview } : {}),
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
