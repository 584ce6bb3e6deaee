// defineTool (TL-4): a tool definition whose argument type is inferred from its literal parameter
// schema. The definition is checked here — name, description, timeout and schema — so a mistake
// fails where the tool is written, not on the model's first call.
import { isJsonObject } from './arguments.ts'
import { ToolRegistrationError } from './errors.ts'
import { hostDeclarationProblem, type ToolHosts } from './host.ts'
import type { FromSchema } from './schema/infer.ts'
import type { ToolParametersSchema } from './schema/subset.ts'
import { compileToolParameters } from './schema/tool-schema.ts'
import { TOOL_KINDS, type ToolPresentation } from './presentation.ts'
import {
  TOOL_ACCESSES,
  type SandboxEscalation,
  type ToolAccess,
  type ToolCallContext,
  type ToolDefinition,
  type ToolOutput,
  type ToolPlan,
  type ToolSdkDeclaration,
} from './types.ts'

export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/

/**
 * The names of tools an MCP server provides (`mcp__<server>__<tool>`, spec 55-mcp.md M3): they keep
 * the server's case and `-` as Claude Code's do, so hooks and rules written for Claude Code match.
 * Still within every provider's tool-name rule ([A-Za-z0-9_-], at most 64).
 */
export const MCP_TOOL_NAME_PATTERN = /^mcp__[A-Za-z0-9_-]{1,59}$/

/** Whether `name` may name a tool: a built-in's lower-case name or an MCP tool's. */
export function isToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name) || MCP_TOOL_NAME_PATTERN.test(name)
}

/** The longest timeout a timer can express (2^31 − 1 ms). */
export const MAX_TOOL_TIMEOUT_MS = 2_147_483_647

/** What `defineTool` takes: a `ToolDefinition` whose `parameters` literal types `args`. */
export interface ToolSpec<P extends ToolParametersSchema> {
  readonly name: string
  readonly description: string
  readonly parameters: P
  /** Aborts the body's signal and yields `TIMEOUT` after this many milliseconds (integer ≥ 1). */
  readonly timeoutMs?: number
  /** What the tool does; none declared counts as `write` (see `ToolAccess`). */
  readonly access?: ToolAccess
  /** The paths a call touches, from its validated arguments (see `ToolDefinition.paths`). */
  paths?(args: FromSchema<P>): readonly string[]
  /** How Claude Code's and Codex's hooks see it (see `ToolHosts`). */
  readonly host?: ToolHosts
  /** Every call is asked outside yolo, whatever its access (see `ToolDefinition.alwaysAsk`). */
  readonly alwaysAsk?: boolean
  /** Whether a call asks to leave the OS sandbox (see `ToolDefinition.escalation`). */
  escalation?(args: FromSchema<P>): SandboxEscalation | undefined
  execute(args: FromSchema<P>, call: ToolCallContext): ToolOutput | Promise<ToolOutput>
  /** The call's dry run, before a question is put (see `ToolDefinition.plan`). */
  plan?(args: FromSchema<P>, call: ToolCallContext): Promise<ToolPlan>
  /** How the tool looks in front ends; `key` names only its own arguments (presentation.ts). */
  readonly present?: ToolPresentation<FromSchema<P>, keyof FromSchema<P> & string>
  /** Offered only once a tool search loads it (deferred.ts). */
  readonly deferred?: boolean
  /** Where Code Mode's SDK declares it (types.ts `ToolSdkDeclaration`). */
  readonly sdk?: ToolSdkDeclaration
}

/**
 * Defines a tool. `parameters` is inferred as a literal (no `as const` needed), so `execute` receives
 * the typed arguments. Throws `InvalidToolSchemaError` for a schema outside the subset and
 * `ToolRegistrationError` (`INVALID_TOOL_NAME`, `INVALID_TOOL_DEFINITION`) for the rest.
 */
export function defineTool<const P extends ToolParametersSchema>(
  spec: ToolSpec<P>,
): ToolDefinition<FromSchema<P>> {
  checkToolDefinition(spec)
  return Object.freeze({ ...spec }) as unknown as ToolDefinition<FromSchema<P>>
}

/** Checks a definition's shape and compiles its schema; used by defineTool and by `register`. */
export function checkToolDefinition(def: {
  readonly name: unknown
  readonly description: unknown
  readonly parameters: unknown
  readonly timeoutMs?: unknown
  readonly access?: unknown
  readonly paths?: unknown
  readonly host?: unknown
  readonly alwaysAsk?: unknown
  readonly escalation?: unknown
  readonly execute: unknown
  readonly plan?: unknown
  readonly present?: unknown
  readonly sdk?: unknown
  readonly deferred?: unknown
}) {
  const name = typeof def.name === 'string' ? def.name : String(def.name)
  if (typeof def.name !== 'string' || !isToolName(def.name)) {
    throw new ToolRegistrationError(
      'INVALID_TOOL_NAME',
      name,
      `invalid tool name ${JSON.stringify(def.name)}: expected ${TOOL_NAME_PATTERN} (lower-case letter, then up to 63 of a-z, 0-9, _) or ${MCP_TOOL_NAME_PATTERN}`,
    )
  }
  const bad = (what: string) =>
    new ToolRegistrationError('INVALID_TOOL_DEFINITION', name, `tool "${name}": ${what}`)
  if (typeof def.description !== 'string') throw bad('description must be a string')
  if (typeof def.execute !== 'function') throw bad('execute must be a function')
  if (def.paths !== undefined && typeof def.paths !== 'function')
    throw bad('paths must be a function when given')
  if (def.plan !== undefined && typeof def.plan !== 'function')
    throw bad('plan must be a function when given')
  if (def.escalation !== undefined && typeof def.escalation !== 'function')
    throw bad('escalation must be a function when given')
  const presentProblem = presentationProblem(def.present)
  if (presentProblem) throw bad(presentProblem)
  if (
    def.timeoutMs !== undefined &&
    (typeof def.timeoutMs !== 'number' ||
      !Number.isInteger(def.timeoutMs) ||
      def.timeoutMs < 1 ||
      def.timeoutMs > MAX_TOOL_TIMEOUT_MS)
  ) {
    throw bad(`timeoutMs must be an integer 1–${MAX_TOOL_TIMEOUT_MS} (got ${JSON.stringify(def.timeoutMs)})`)
  }
  if (def.access !== undefined && !(TOOL_ACCESSES as readonly unknown[]).includes(def.access)) {
    throw bad(`access must be one of ${TOOL_ACCESSES.join(', ')} (got ${JSON.stringify(def.access)})`)
  }
  if (def.alwaysAsk !== undefined && typeof def.alwaysAsk !== 'boolean')
    throw bad('alwaysAsk must be a boolean when given')
  if (def.deferred !== undefined && typeof def.deferred !== 'boolean')
    throw bad('deferred must be a boolean when given')
  const hostProblem = hostDeclarationProblem(def.host)
  if (hostProblem) throw bad(hostProblem)
  const sdkProblem = sdkDeclarationProblem(def.sdk)
  if (sdkProblem) throw bad(sdkProblem)
  return compileToolParameters(def.parameters)
}

function sdkDeclarationProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (!isJsonObject(value)) return 'sdk must be an object {path?, result?}'
  const path = value.path
  if (
    path !== undefined &&
    !(Array.isArray(path) && path.length > 0 && path.every((part) => typeof part === 'string' && part !== ''))
  )
    return 'sdk.path must be a non-empty array of non-empty strings'
  if (value.result !== undefined && !isJsonObject(value.result))
    return 'sdk.result must be a JSON schema object'
  return undefined
}

const PRESENTERS = ['title', 'locations', 'call', 'result'] as const

/** What is wrong with a declared presentation's shape, if anything (its answers are checked when used). */
function presentationProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (!isJsonObject(value))
    return 'present must be an object {kind?, key?, title?, locations?, call?, result?}'
  if (value.kind !== undefined && !(TOOL_KINDS as readonly unknown[]).includes(value.kind))
    return `present.kind must be one of ${TOOL_KINDS.join(', ')} (got ${JSON.stringify(value.kind)})`
  const key = value.key
  if (
    key !== undefined &&
    typeof key !== 'function' &&
    !(Array.isArray(key) && key.every((name) => typeof name === 'string'))
  )
    return 'present.key must be a list of argument names or a function'
  for (const part of PRESENTERS) {
    if (value[part] !== undefined && typeof value[part] !== 'function')
      return `present.${part} must be a function when given`
  }
  return undefined
}
