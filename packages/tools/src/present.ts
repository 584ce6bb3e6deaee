// Render intents (TL-10): front ends render only intents. A tool's own `presentCall` /
// `presentResult` are used when defined and its arguments validate (defaults filled, as the body saw
// them); otherwise — an unknown tool, invalid arguments, no presenter, or a presenter that throws —
// the generic intent: the name, the compact JSON arguments, the text content.
import type { Logger } from 'cordis'
import type { PipelineTool } from './pipeline/execute.ts'
import type { RenderIntent, ToolResultView } from './types.ts'

/** `args` may be the parsed value or the raw argument text (as `tool/call` logs it). */
export function presentCall(
  tool: PipelineTool | undefined,
  name: string,
  args: unknown,
  logger: Logger,
): RenderIntent {
  const present = tool?.def.presentCall
  const valid = tool && present ? validArgs(tool, args) : undefined
  if (tool && present && valid) {
    try {
      return present.call(tool.def, valid.value)
    } catch (error) {
      logger.warn('presentCall of tool %s failed: %s', name, (error as Error)?.message ?? error)
    }
  }
  return genericCallIntent(name, args)
}

export function presentResult(
  tool: PipelineTool | undefined,
  name: string,
  args: unknown,
  result: ToolResultView,
  logger: Logger,
): RenderIntent {
  const present = tool?.def.presentResult
  const valid = tool && present ? validArgs(tool, args) : undefined
  if (tool && present && valid) {
    try {
      return present.call(tool.def, valid.value, result)
    } catch (error) {
      logger.warn('presentResult of tool %s failed: %s', name, (error as Error)?.message ?? error)
    }
  }
  return genericResultIntent(name, result)
}

export function genericCallIntent(name: string, args: unknown): RenderIntent {
  const body = typeof args === 'string' ? args : compactJson(args)
  return body === undefined ? { kind: 'generic', title: name } : { kind: 'generic', title: name, body }
}

export function genericResultIntent(name: string, result: ToolResultView): RenderIntent {
  const title = result.isError ? `${name} failed${result.error ? ` (${result.error.code})` : ''}` : name
  const body = result.content.map((block) => block.text).join('\n')
  return body === '' ? { kind: 'generic', title } : { kind: 'generic', title, body }
}

function validArgs(tool: PipelineTool, args: unknown) {
  const checked = typeof args === 'string' ? tool.validator.parse(args) : tool.validator.validate(args)
  return checked.ok ? checked : undefined
}

function compactJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}
