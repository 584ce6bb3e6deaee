// The `ask` arm of a pre-execute decision (TL-5, TL-35): `tools/permission-request` may answer first
// (allow, with a rewrite, or deny) — else ask `ctx.approval`, or deny when no approver is mounted; an
// abort while waiting ends the call `ABORTED`. Every ask leaves exactly `approval/requested` then
// `approval/resolved` in the log (when the call has an agent).
import { dispatch } from '@tack/kernel'
import type { Context } from 'cordis'
import type { ResultIntent } from '../presentation.ts'
import type {
  ApprovalAnswer,
  PermissionRequestDecision,
  ApprovalService,
  ToolAccess,
  ToolExecution,
  ToolExecutionResult,
} from '../types.ts'
import type { Recorder } from './record.ts'
import { aborted, errorResult, pluginError } from './results.ts'
import { permissionDecisionProblem } from './shapes.ts'

type Waited =
  | { kind: 'answered'; answer: ApprovalAnswer }
  | { kind: 'aborted' }
  | { kind: 'failed'; error: unknown }

/** How an `ask` ended: the call may go on (approved by the user or a rule), or this result ends it. */
export type AskOutcome =
  /** `arguments`: a `tools/permission-request` listener's rewrite of the input (TL-32). */
  | {
      readonly kind: 'approved'
      readonly by: 'user' | 'rule'
      readonly arguments?: unknown
      /** The plugin whose rewrite `arguments` is. */
      readonly rewrittenBy?: string
    }
  | { readonly kind: 'refused'; readonly result: ToolExecutionResult }

const refused = (result: ToolExecutionResult): AskOutcome => ({ kind: 'refused', result })

export async function askApproval(
  ctx: Context,
  exec: ToolExecution,
  access: ToolAccess,
  reason: string | undefined,
  record: Recorder,
  /** What the call would change (the tool's dry run, plan.ts), for the approver to show. */
  preview?: readonly ResultIntent[],
): Promise<AskOutcome> {
  record('approval/requested', { callId: exec.callId, ...(reason !== undefined && { reason }) })
  const approver = ctx.get('approval') as ApprovalService | undefined
  // A session rule of the approver answers without a question: no permission request is made.
  const known = rememberedAnswer(approver, exec, access, reason, preview)
  if (known) return settled(exec, known, record)
  let early: PermissionRequestDecision
  let decidedBy: string | undefined
  try {
    const ask = Object.freeze({ access, ...(reason !== undefined && { reason }) })
    const dispatched = await dispatch(ctx, 'tools/permission-request', [exec, ask], () => ASK, {
      check: permissionDecisionProblem,
    })
    early = dispatched.value
    decidedBy = dispatched.origin
  } catch (error) {
    record('approval/resolved', { callId: exec.callId, decision: 'deny', by: 'none' })
    return refused(pluginError(exec, error))
  }
  switch (early.action) {
    case 'allow':
      record('approval/resolved', { callId: exec.callId, decision: 'allow', by: 'rule' })
      return {
        kind: 'approved',
        by: 'rule',
        ...(early.arguments !== undefined && {
          arguments: early.arguments,
          rewrittenBy: decidedBy ?? 'unknown',
        }),
      }
    case 'deny':
      record('approval/resolved', { callId: exec.callId, decision: 'deny', by: 'rule' })
      return refused(errorResult(exec, 'DENIED', early.reason, { message: early.reason }))
    case 'ask':
      break
    default:
      return early satisfies never
  }
  if (!approver) {
    record('approval/resolved', { callId: exec.callId, decision: 'deny', by: 'none' })
    const why = reason ? ` (asked because: ${reason})` : ''
    return refused(
      errorResult(
        exec,
        'DENIED',
        `No approver was available to allow the call to "${exec.name}"${why}, so it was denied.`,
        {
          message: 'no approver was available',
        },
      ),
    )
  }
  const waited = await waitForAnswer(approver, exec, access, reason, preview)
  switch (waited.kind) {
    case 'aborted':
      record('approval/resolved', { callId: exec.callId, decision: 'deny', by: 'none' })
      return refused(aborted(exec))
    case 'failed':
      record('approval/resolved', { callId: exec.callId, decision: 'deny', by: 'none' })
      return refused(
        pluginError(
          exec,
          new Error(`approval service of plugin "${approverPlugin(ctx)}" failed: ${messageOf(waited.error)}`),
        ),
      )
    case 'answered':
      return settled(exec, waited.answer, record)
    default:
      return waited satisfies never
  }
}

/** The approver's remembered answer for this call, if it has one (a throwing or malformed one: none, so it asks). */
function rememberedAnswer(
  approver: ApprovalService | undefined,
  exec: ToolExecution,
  access: ToolAccess,
  reason: string | undefined,
  preview: readonly ResultIntent[] | undefined,
): ApprovalAnswer | undefined {
  if (!approver?.remembered) return undefined
  try {
    const answer = approver.remembered({
      exec,
      access,
      ...(preview && { preview }),
      ...(exec.agent && { agent: exec.agent }),
      ...(reason !== undefined && { reason }),
    })
    return answer !== undefined && !answerProblem(answer) ? answer : undefined
  } catch {
    return undefined
  }
}

/** An approver's answer, logged and applied. */
function settled(exec: ToolExecution, answer: ApprovalAnswer, record: Recorder): AskOutcome {
  record('approval/resolved', {
    callId: exec.callId,
    decision: answer.action,
    by: answer.by,
    ...(answer.scope !== undefined && { scope: answer.scope }),
  })
  switch (answer.action) {
    case 'allow':
      return { kind: 'approved', by: answer.by }
    case 'deny': {
      const text =
        answer.reason ??
        (answer.by === 'user'
          ? `The user denied the call to "${exec.name}".`
          : `The call to "${exec.name}" was denied by a rule.`)
      return refused(errorResult(exec, 'DENIED', text, { message: text }))
    }
    default:
      return answer satisfies never
  }
}

async function waitForAnswer(
  approver: ApprovalService,
  exec: ToolExecution,
  access: ToolAccess,
  reason: string | undefined,
  preview: readonly ResultIntent[] | undefined,
): Promise<Waited> {
  const { signal } = exec
  if (signal.aborted) return { kind: 'aborted' }
  let onAbort = () => {}
  const abortedWait = new Promise<Waited>((resolve) => {
    onAbort = () => resolve({ kind: 'aborted' })
    signal.addEventListener('abort', onAbort, { once: true })
  })
  // Parallel read-only calls (docs/decisions/0063-parallel-tool-calls.md) may ask at once: the person
  // behind the approver answers one question at a time, in the order the calls asked.
  const answered = oneAtATime(approver, abortedWait, async (): Promise<Waited> => {
    if (signal.aborted) return { kind: 'aborted' }
    try {
      const answer = await approver.request({
        exec,
        access,
        signal,
        ...(preview && { preview }),
        ...(exec.agent && { agent: exec.agent }),
        ...(reason !== undefined && { reason }),
      })
      const problem = answerProblem(answer)
      return problem ? { kind: 'failed', error: new TypeError(problem) } : { kind: 'answered', answer }
    } catch (error) {
      return { kind: 'failed', error }
    }
  })
  try {
    return await Promise.race([answered, abortedWait])
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

const ASK: PermissionRequestDecision = Object.freeze({ action: 'ask' })

const questionTails = new WeakMap<ApprovalService, Promise<unknown>>()

/**
 * Runs `ask` after every earlier question to the same approver has been answered or abandoned; a
 * question is abandoned when its call is cancelled, so an approver that ignores the signal cannot
 * hold up later questions.
 */
function oneAtATime<T>(
  approver: ApprovalService,
  abandoned: Promise<unknown>,
  ask: () => Promise<T>,
): Promise<T> {
  const previous = questionTails.get(approver) ?? Promise.resolve()
  const mine = previous.then(ask, ask)
  questionTails.set(
    approver,
    Promise.race([mine, abandoned]).catch(() => {}),
  )
  return mine
}

function answerProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object')
    return 'the approver answered with something that is not an ApprovalAnswer'
  const answer = value as Record<string, unknown>
  if (answer.action !== 'allow' && answer.action !== 'deny')
    return `unknown approval action ${JSON.stringify(answer.action)}`
  const bys = answer.action === 'allow' ? ['user', 'rule'] : ['user', 'rule', 'none']
  if (!bys.includes(answer.by as string)) return `approval "by" must be one of ${bys.join(', ')}`
  if (answer.scope !== undefined && answer.scope !== 'once' && answer.scope !== 'session') {
    return 'approval scope must be "once" or "session"'
  }
  if (answer.reason !== undefined && typeof answer.reason !== 'string')
    return 'approval reason must be a string'
  return undefined
}

function approverPlugin(ctx: Context): string {
  try {
    return ctx.reflect._getImpl('approval')?.fiber.name ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
