// Run-time shape checks for what plugins hand to the pipeline (decisions, answers, results, context
// items). Each returns a description of the first problem, or undefined; the dispatcher attributes a
// problem to the plugin that returned the value (TL-8).
import { isImageBlock } from '@tack/session'
import { isJsonObject } from '../arguments.ts'

export function contentProblem(value: unknown): string | undefined {
  if (typeof value === 'string') return undefined
  if (!Array.isArray(value)) return 'content must be a string or an array of text blocks'
  for (const [i, block] of value.entries()) {
    if (isJsonObject(block) && block.type === 'image') {
      if (!isImageBlock(block))
        return `content[${i}] must be an image block from imageBlock() (@tack/session)`
    } else if (!isJsonObject(block) || block.type !== 'text' || typeof block.text !== 'string') {
      return `content[${i}] must be {type: 'text', text: string}`
    }
  }
  return undefined
}

/** A `HookContext` needs its source (AL-1): plugin text is never recorded as the user's. */
export function contextProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) return 'additionalContext must be an array'
  for (const [i, item] of value.entries()) {
    if (!isJsonObject(item)) return `additionalContext[${i}] must be an object`
    const content = contentProblem(item.content)
    if (content) return `additionalContext[${i}].${content}`
    const source = item.source
    const sourceOk =
      isJsonObject(source) &&
      (source.kind === 'user' ||
        (source.kind === 'plugin' && typeof source.name === 'string' && source.name !== ''))
    if (!sourceOk)
      return `additionalContext[${i}].source is required ({kind: 'user'} or {kind: 'plugin', name}) (MISSING_SOURCE)`
  }
  return undefined
}

export function errorProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (!isJsonObject(value) || typeof value.name !== 'string' || typeof value.code !== 'string') {
    return 'error must be {name: string, code: string, message?: string}'
  }
  if (value.message !== undefined && typeof value.message !== 'string')
    return 'error.message must be a string'
  return undefined
}

/** A `tools/call` answer or a `tools/execute` result. */
export function answerProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return 'expected a result object with content'
  if (value.isError !== undefined && typeof value.isError !== 'boolean') return 'isError must be a boolean'
  return contentProblem(value.content) ?? errorProblem(value.error) ?? contextProblem(value.additionalContext)
}

export function preDecisionProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return 'expected a PreToolDecision object'
  switch (value.action) {
    case 'allow':
      if (value.approval !== undefined && value.approval !== 'rule')
        return "approval must be 'rule' when given"
      break
    case 'deny':
      if (typeof value.reason !== 'string') return 'a deny decision needs a reason string'
      break
    case 'ask':
      if (value.reason !== undefined && typeof value.reason !== 'string') return 'reason must be a string'
      break
    default:
      return `unknown action ${JSON.stringify(value.action)} (expected allow, deny or ask)`
  }
  return contextProblem(value.additionalContext)
}

export function postDecisionProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return 'expected a PostToolDecision object'
  switch (value.action) {
    case 'accept':
      if (value.content !== undefined) {
        const problem = contentProblem(value.content)
        if (problem) return problem
      }
      break
    case 'block':
      if (typeof value.feedback !== 'string') return 'a block decision needs a feedback string'
      break
    default:
      return `unknown action ${JSON.stringify(value.action)} (expected accept or block)`
  }
  return contextProblem(value.additionalContext)
}

/** A replaced `ToolExecution` passed to `next`. */
export function executionProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return 'next() was given something that is not a ToolExecution'
  if (typeof value.rawArguments !== 'string')
    return 'next() was given a ToolExecution without rawArguments text'
  if (!(value.signal instanceof AbortSignal)) return 'next() was given a ToolExecution without an AbortSignal'
  return undefined
}

/** A `tools/permission-request` decision (TL-8 attributes a problem to the plugin that returned it). */
export function permissionDecisionProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return 'a permission-request decision must be an object'
  switch (value.action) {
    case 'ask':
    case 'allow':
      return undefined
    case 'deny':
      return typeof value.reason === 'string' ? undefined : 'a deny decision needs a reason string'
    default:
      return `unknown permission-request action ${JSON.stringify(value.action)}`
  }
}
