// Errors the registry and defineTool throw at definition or registration time, and the error a tool
// body throws to return a coded error result. `execute` itself never throws (TL-3): every failure at
// call time becomes an `isError` result carrying one of `TOOL_ERROR_CODES`.
import type { Content } from '@tack/session'

/** The shared error codes of tool results (TL-3); tools add their own (`NOT_FOUND`, …). */
export const TOOL_ERROR_CODES = Object.freeze([
  'UNKNOWN_TOOL',
  'INVALID_ARGS',
  'DENIED',
  'TOOL_FAILED',
  'TIMEOUT',
  'ABORTED',
  'BLOCKED',
  'PLUGIN_ERROR',
  'CODE_RUN_FAILED',
] as const)
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number]

/** A tool schema uses something outside the defineTool subset (TL-4); names the schema path and keyword. */
export class InvalidToolSchemaError extends Error {
  override readonly name = 'InvalidToolSchemaError'
  readonly code = 'INVALID_TOOL_SCHEMA'
  /** JSON Pointer into the schema, `/` for the root. */
  readonly path: string
  readonly keyword: string
  constructor(path: string, keyword: string, problem: string) {
    super(`invalid tool schema at ${path} (keyword "${keyword}"): ${problem}`)
    this.path = path
    this.keyword = keyword
  }
}

export type ToolRegistrationCode = 'DUPLICATE_TOOL' | 'INVALID_TOOL_NAME' | 'INVALID_TOOL_DEFINITION'

/** `register` (or `defineTool`) refused a definition (TL-1). */
export class ToolRegistrationError extends Error {
  override readonly name = 'ToolRegistrationError'
  readonly code: ToolRegistrationCode
  readonly toolName: string
  constructor(code: ToolRegistrationCode, toolName: string, message: string) {
    super(message)
    this.code = code
    this.toolName = toolName
  }
}

/**
 * A prompt assembly in `code` or `both` mode with no TypeScript code runtime mounted (TL-20): the turn
 * ends `error` rather than offering the model a `run_code` that cannot run.
 */
export class CodeModeUnavailableError extends Error {
  override readonly name = 'CodeModeUnavailableError'
  readonly code = 'CODE_MODE_UNAVAILABLE'
  readonly mode: string
  constructor(mode: string) {
    super(
      `tools mode "${mode}" needs a TypeScript code runtime (ctx.codeRuntime, the @tack/code-runtime plugin), ` +
        `and none is loaded; load it (in tack: do not turn plugins.codeRuntime off) or set the tools mode to "native"`,
    )
    this.mode = mode
  }
}

/**
 * Thrown by a tool body to return an error result with the tool's own code (e.g. `NOT_FOUND`) instead
 * of the generic `TOOL_FAILED`. `content` defaults to the message; `meta` survives (TL-9), so a failed
 * command can still feed its card (e.g. a non-zero exit with its output).
 */
export class ToolFailure extends Error {
  override readonly name: string = 'ToolFailure'
  readonly code: string
  readonly content?: Content
  readonly meta?: unknown
  constructor(code: string, message: string, options: { content?: Content; meta?: unknown } = {}) {
    super(message)
    this.code = code
    this.content = options.content
    this.meta = options.meta
  }
}

/** How a Code Mode run failed (TL-29). */
export type CodeRunFailureKind = 'compile' | 'runtime' | 'timeout' | 'memory' | 'aborted'

/**
 * A `run_code` program that did not complete (TL-29): thrown by the run_code body, it becomes an error
 * result with `error {name: 'CodeRunFailedError', code: 'CODE_RUN_FAILED'}`, content stating the kind,
 * the message and the captured console output, and `meta {kind, logs}`.
 */
export class CodeRunFailedError extends ToolFailure {
  override readonly name = 'CodeRunFailedError'
  readonly kind: CodeRunFailureKind
  readonly logs: string
  constructor(kind: CodeRunFailureKind, message: string, logs: string) {
    const text = [`run_code failed (${kind}): ${message}`]
    if (logs) text.push('', 'Console output before the failure:', logs)
    super('CODE_RUN_FAILED', message, { content: text.join('\n'), meta: { kind, logs } })
    this.kind = kind
    this.logs = logs
  }
}
