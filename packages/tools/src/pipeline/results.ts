// Builders for the results the pipeline produces itself. Every error result says, in its content,
// what the model needs to correct or report; `error` carries the machine-readable code (TL-3).
import { SeamError } from '@tack/kernel'
import { type Content, type ContentBlock, type HookContext, toContentBlocks, blockText } from '@tack/session'
import type { ToolErrorCode } from '../errors.ts'
import type { ToolAnswer, ToolError, ToolExecutionResult } from '../types.ts'

/** The identity of a call, as every result repeats it. */
export interface CallId {
  readonly callId: string
  readonly name: string
}

/** `error.name` of the errors the registry decides itself (not thrown by a body or a plugin). */
export const REGISTRY_ERROR_NAME = 'ToolCallError'

export function errorResult(
  call: CallId,
  /** A shared code, `INTERNAL_ERROR`, or a tool's own code (from a `ToolFailure`). */
  code: ToolErrorCode | 'INTERNAL_ERROR' | (string & {}),
  text: Content,
  options: { name?: string; message?: string; meta?: unknown } = {},
): ToolExecutionResult {
  const message = options.message ?? (typeof text === 'string' ? text : undefined)
  const error: ToolError = {
    name: options.name ?? REGISTRY_ERROR_NAME,
    code,
    ...(message !== undefined && { message }),
  }
  return {
    callId: call.callId,
    name: call.name,
    content: toContentBlocks(text),
    isError: true,
    error,
    ...(options.meta !== undefined && { meta: options.meta }),
  }
}

export function unknownTool(call: CallId, available: readonly string[]): ToolExecutionResult {
  const list = available.length ? `Available tools: ${available.join(', ')}.` : 'No tools are available.'
  return errorResult(call, 'UNKNOWN_TOOL', `Unknown tool "${call.name}". ${list}`, {
    message: `unknown tool "${call.name}"`,
  })
}

export function invalidArguments(
  call: CallId,
  problems: readonly string[],
  rewrittenBy?: string,
): ToolExecutionResult {
  const head = rewrittenBy
    ? `Arguments rewritten by plugin "${rewrittenBy}" are invalid for tool "${call.name}":`
    : `Invalid arguments for tool "${call.name}":`
  return errorResult(call, 'INVALID_ARGS', [head, ...problems].join('\n'), { message: problems.join('; ') })
}

export function aborted(call: CallId): ToolExecutionResult {
  return errorResult(call, 'ABORTED', `The call to "${call.name}" was aborted.`, { name: 'AbortError' })
}

/** A listener (or the approver) failed: the call fails closed with the seam and plugin named. */
export function pluginError(call: CallId, error: unknown, meta?: unknown): ToolExecutionResult {
  const text = error instanceof Error ? error.message : String(error)
  return errorResult(call, 'PLUGIN_ERROR', text, {
    name: error instanceof SeamError ? error.name : 'PluginError',
    meta,
  })
}

/** Something in the pipeline itself failed (e.g. the session refused a log-only event). */
export function internalError(call: CallId, error: unknown): ToolExecutionResult {
  const name = error instanceof Error ? error.name : 'Error'
  const message = error instanceof Error ? error.message : String(error)
  return errorResult(call, 'INTERNAL_ERROR', `The tools pipeline failed: ${message}`, { name, message })
}

/** Turns a listener's answer (TL-31) or a wrapper's result into a full result of this call. */
export function resultFromAnswer(call: CallId, answer: ToolAnswer): ToolExecutionResult {
  const isError = answer.isError ?? answer.error !== undefined
  return {
    callId: call.callId,
    name: call.name,
    content: toContentBlocks(answer.content),
    isError,
    ...(answer.error && { error: copyError(answer.error) }),
    ...(answer.additionalContext?.length && { additionalContext: answer.additionalContext }),
    ...(answer.meta !== undefined && { meta: answer.meta }),
  }
}

function copyError(error: ToolError): ToolError {
  return {
    name: error.name,
    code: error.code,
    ...(error.message !== undefined && { message: error.message }),
  }
}

/** The text of a result's blocks, joined by newlines. */
export function textOf(content: readonly ContentBlock[]): string {
  return content.map(blockText).join('\n')
}

/** `result` with exactly `context` as its additional context (absent when empty). */
export function withContext(
  result: ToolExecutionResult,
  context: readonly HookContext[],
): ToolExecutionResult {
  const { additionalContext: _replaced, ...rest } = result
  return context.length ? { ...rest, additionalContext: context } : rest
}
