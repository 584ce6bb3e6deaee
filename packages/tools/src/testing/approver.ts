import type { Context } from '@tack/kernel'
import type { ApprovalAnswer, ApprovalRequest } from '../types.ts'

type Answer = ApprovalAnswer | ((req: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>)

/**
 * Provides `ctx.approval` from a plugin named `approver` that gives every request `answer` (fixed, or
 * computed from the request). Returns the requests it was asked, in order, for the test to check.
 */
export async function mountApprover(ctx: Context, answer: Answer): Promise<ApprovalRequest[]> {
  const requests: ApprovalRequest[] = []
  await ctx.plugin({
    name: 'approver',
    apply: (inner: Context) =>
      void inner.provide('approval', {
        request: async (req: ApprovalRequest) => {
          requests.push(req)
          return typeof answer === 'function' ? answer(req) : answer
        },
      }),
  })
  return requests
}
