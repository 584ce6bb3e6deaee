// One call through the pipeline (30-tools.md §3), all inside `tools/call` (TL-31):
//   look up → parse and validate → tools/pre-execute (→ the tool's dry run, then approval; a rewrite
//   validated again and logged) → tools/execute (around the body) → body → tools/post-execute → result.
// Never throws (TL-3): every failure is an `isError` result with a code.
import { type Dispatched, deepFreeze, dispatch, SeamError } from '@tack/kernel'
import { checkJson, type HookContext, type JsonValue, toContentBlocks } from '@tack/session'
import type { Context, Logger } from 'cordis'
import type { ToolSchemaValidator } from '../schema/tool-schema.ts'
import type {
  PostToolDecision,
  PreToolDecision,
  ToolCallRequest,
  ToolDefinition,
  ToolExecution,
  ToolExecutionResult,
} from '../types.ts'
import { toolAccess } from '../declarations.ts'
import { askApproval } from './approval.ts'
import { runBody } from './body.ts'
import { boundImages } from './image-bound.ts'
import { planCall } from './plan.ts'
import { boundPreview } from './preview-bound.ts'
import { programContext } from './program-context.ts'
import { progressRecorder } from './progress.ts'
import { type Recorder, recorderFor } from './record.ts'
import {
  aborted,
  errorResult,
  internalError,
  invalidArguments,
  pluginError,
  resultFromAnswer,
  unknownTool,
  withContext,
} from './results.ts'
import { answerProblem, executionProblem, postDecisionProblem, preDecisionProblem } from './shapes.ts'

/** A registered tool as the pipeline needs it. */
export interface PipelineTool {
  readonly def: ToolDefinition
  readonly validator: ToolSchemaValidator
}

/** What the registry gives the pipeline. */
export interface PipelineEnv {
  readonly ctx: Context
  readonly logger: Logger
  readonly abortGraceMs: number
  /** The least time between two logged `tool/progress` events of one call. */
  readonly progressIntervalMs: number
  /** Decoded bytes an image in a result may have; past it the image is a note (image-bound.ts). */
  readonly maxImageBytes: number
  /** Pixels of an image's longer side in a result; past it the image is a note (image-bound.ts). */
  readonly maxImageLongEdge: number
  /** Characters of a dry run's preview an approval question carries (preview-bound.ts). */
  readonly approvalPreviewMaxChars: number
  lookup(name: string): PipelineTool | undefined
  /** Registered names, sorted, for the `UNKNOWN_TOOL` message. */
  names(): readonly string[]
  track(body: Promise<unknown>): void
}

const ALLOW: PreToolDecision = Object.freeze({ action: 'allow' })
const ACCEPT: PostToolDecision = Object.freeze({ action: 'accept' })

export async function executeCall(env: PipelineEnv, input: ToolCallRequest): Promise<ToolExecutionResult> {
  const call = { callId: String(input?.callId), name: String(input?.name) }
  try {
    const first = frozenExecution(input, undefined)
    const record = recorderFor(first.agent)
    const outer = await dispatch(
      env.ctx,
      'tools/call',
      [first],
      ([replaced], by) => runPipeline(env, first, replaced, by, record),
      { check: answerProblem },
    )
    if (!outer.innerRan) record('tool/answered', { callId: first.callId, by: outer.origin ?? 'unknown' })
    return finalize(env, resultFromAnswer(call, outer.value))
  } catch (error) {
    return finalize(env, error instanceof SeamError ? pluginError(call, error) : internalError(call, error))
  }
}

async function runPipeline(
  env: PipelineEnv,
  first: ToolExecution,
  replaced: unknown,
  replacedBy: string | undefined,
  record: Recorder,
): Promise<ToolExecutionResult> {
  // A `tools/call` listener may pass a replaced exec: only its argument text and signal are taken.
  if (replaced !== first) {
    const problem = executionProblem(replaced)
    if (problem) throw new SeamError('tools/call', replacedBy ?? 'unknown', new TypeError(problem))
  }
  const given = replaced as ToolExecution
  let exec = frozenExecution({ ...first, rawArguments: given.rawArguments, signal: given.signal }, undefined)

  const tool = env.lookup(exec.name)
  if (!tool) return unknownTool(exec, env.names())
  if (typeof exec.rawArguments !== 'string') {
    return invalidArguments(exec, ['/: expected the argument text (a JSON document as a string)'])
  }

  const rawRewritten = exec.rawArguments !== first.rawArguments
  const parsed = tool.validator.parse(exec.rawArguments)
  if (!parsed.ok) return invalidArguments(exec, parsed.problems, rawRewritten ? replacedBy : undefined)
  exec = frozenExecution(exec, parsed.value)
  if (rawRewritten) {
    record('tool/arguments-rewritten', {
      callId: exec.callId,
      arguments: exec.arguments as JsonValue,
      by: replacedBy ?? 'unknown',
    })
  }
  if (exec.signal.aborted) return aborted(exec)

  // tools/pre-execute: a throw (or a malformed decision) fails closed — the body never runs (TL-8).
  let pre: Dispatched<PreToolDecision>
  try {
    pre = await dispatch(env.ctx, 'tools/pre-execute', [exec], () => ALLOW, {
      check: preDecisionProblem,
    })
  } catch (error) {
    return pluginError(exec, error)
  }
  const decision = pre.value
  const context: HookContext[] = [...(decision.additionalContext ?? [])]
  let approval: 'user' | 'rule' | undefined
  switch (decision.action) {
    case 'deny':
      return withContext(errorResult(exec, 'DENIED', decision.reason), context)
    case 'allow':
    case 'ask': {
      if (decision.arguments !== undefined) {
        const rewritten = applyRewrite(tool, exec, decision.arguments, pre.origin ?? 'unknown', record)
        if ('result' in rewritten) return withContext(rewritten.result, context)
        exec = rewritten.exec
      }
      if (decision.action === 'ask') {
        // The dry run first: a call that cannot work fails now, and one that can shows what it would change.
        const planned = await planCall(tool.def, exec, env.approvalPreviewMaxChars, env.logger)
        if (planned.kind === 'failed') return withContext(planned.result, context)
        // A Code Mode sub-call also shows its program, after the change (program-context.ts).
        const program = env.approvalPreviewMaxChars > 0 ? programContext(exec) : []
        const preview =
          program.length > 0
            ? boundPreview([...(planned.preview ?? []), ...program], env.approvalPreviewMaxChars)
            : planned.preview
        const asked = await askApproval(env.ctx, exec, toolAccess(tool.def), decision.reason, record, preview)
        if (asked.kind === 'refused') return withContext(asked.result, context)
        approval = asked.by
        if (asked.arguments !== undefined) {
          const by = asked.rewrittenBy ?? 'unknown'
          const rewritten = applyRewrite(tool, exec, asked.arguments, by, record)
          if ('result' in rewritten) return withContext(rewritten.result, context)
          exec = rewritten.exec
        }
      } else if (decision.approval === 'rule') {
        // A configured rule vouches for the call (permissions' allow rules and yolo mode), so tools
        // that guard a boundary themselves (tool-fs's workspace scope) may cross it.
        approval = 'rule'
      }
      break
    }
    default:
      return decision satisfies never
  }

  // tools/execute around the body; a wrapper may swap the signal (and retry by calling next again).
  let bodyRan = false
  let result: ToolExecutionResult
  try {
    const ran = await dispatch(
      env.ctx,
      'tools/execute',
      [exec],
      ([swapped], by) => {
        if (swapped !== exec) {
          const problem = executionProblem(swapped)
          if (problem) throw new SeamError('tools/execute', by ?? 'unknown', new TypeError(problem))
        }
        bodyRan = true
        const signal = (swapped as ToolExecution).signal
        return runBody(tool.def, signal === exec.signal ? exec : { ...exec, signal }, {
          abortGraceMs: env.abortGraceMs,
          track: env.track,
          approval,
          ...(exec.agent && { progress: progressRecorder(exec.callId, env.progressIntervalMs, record) }),
        })
      },
      { check: answerProblem, repeatableNext: true },
    )
    result = resultFromAnswer(exec, ran.value)
  } catch (error) {
    result = pluginError(exec, error)
  }
  if (!bodyRan) return withContext(result, [...context, ...(result.additionalContext ?? [])])
  context.push(...(result.additionalContext ?? []))
  result = canonicalMeta(env, result)

  // tools/post-execute: for every body that ran, including thrown and timed-out ones (TL-7).
  try {
    const post = await dispatch(
      env.ctx,
      'tools/post-execute',
      [exec, deepFreeze(withContext(result, []))],
      () => ACCEPT,
      { check: postDecisionProblem },
    )
    const verdict = post.value
    context.push(...(verdict.additionalContext ?? []))
    switch (verdict.action) {
      case 'accept':
        if (verdict.content !== undefined) result = { ...result, content: toContentBlocks(verdict.content) }
        break
      case 'block':
        // The side effect happened: `meta` stays, the model sees the feedback instead of the output.
        result = {
          ...errorResult(exec, 'BLOCKED', verdict.feedback, {
            name: 'BlockedError',
            message: verdict.feedback,
          }),
          ...(result.meta !== undefined && { meta: result.meta }),
        }
        break
      default:
        return verdict satisfies never
    }
  } catch (error) {
    result = pluginError(exec, error, result.meta)
  }
  return withContext(result, context)
}

/** TL-32: `args` replaces the call's input once valid, logged as rewritten by `by`; else the call ends INVALID_ARGS. */
function applyRewrite(
  tool: PipelineTool,
  exec: ToolExecution,
  args: unknown,
  by: string,
  record: Recorder,
): { readonly exec: ToolExecution } | { readonly result: ToolExecutionResult } {
  const rewritten = validateRewrite(tool, args)
  if (!rewritten.ok) return { result: invalidArguments(exec, rewritten.problems, by) }
  const next = frozenExecution(exec, rewritten.value)
  record('tool/arguments-rewritten', { callId: next.callId, arguments: next.arguments as JsonValue, by })
  return { exec: next }
}

/** A TL-32 rewrite must be lossless JSON (it is logged) and valid against the schema. */
function validateRewrite(tool: PipelineTool, value: unknown) {
  const json = checkJson(value)
  if (!json.ok) return { ok: false as const, problems: [`${json.path || '/'}: ${json.reason}`] }
  return tool.validator.validate(json.value)
}

/**
 * The exec handed to listeners: `arguments` deep-frozen (it is the pipeline's own copy); `agent` and
 * `signal` are live objects and stay unfrozen.
 */
function frozenExecution(exec: ToolCallRequest, args: unknown): ToolExecution {
  return Object.freeze({
    callId: exec.callId,
    name: exec.name,
    rawArguments: exec.rawArguments,
    arguments: deepFreeze(args),
    ...(exec.agent && { agent: exec.agent }),
    cwd: exec.cwd,
    signal: exec.signal,
  })
}

/** TL-9: non-JSON meta is dropped with a warning; otherwise its canonical copy is kept. */
function canonicalMeta(env: PipelineEnv, result: ToolExecutionResult): ToolExecutionResult {
  if (result.meta === undefined) return result
  const checked = checkJson(result.meta)
  if (checked.ok) return { ...result, meta: checked.value }
  env.logger.warn(
    'tool %s (call %s) returned meta that is not lossless JSON at %s (%s); the meta was dropped',
    result.name,
    result.callId,
    checked.path || '/',
    checked.reason,
  )
  const { meta: _dropped, ...rest } = result
  return rest
}

function finalize(env: PipelineEnv, result: ToolExecutionResult): ToolExecutionResult {
  const content = boundImages(result.content, env.maxImageBytes, env.maxImageLongEdge)
  return deepFreeze(canonicalMeta(env, content === result.content ? result : { ...result, content }))
}
