// Tools as Claude Code's hooks see them, from each tool's own declaration (`host.claude`,
// docs/decisions/0210-host-protocol-packages.md): its Claude name, its `tool_input`, the way back from an
// `updatedInput`, and its `tool_response`. Reading a declaration (the name, `toInput`, `fromInput`, and
// their faults) is the same for every host and is @tack/tools' `HostMappingReader`; this package is a
// leaf, so it takes that reader structurally (`ClaudeToolReader`) and adds what only Claude has: the
// response. A tool that declares no Claude mapping keeps its own name and raw arguments (`run_code`,
// `mcp__*`, a plugin's tool) and answers `{output, isError}`. The hooks bridge, the mod host and the
// transcript all read tools this way, so they agree.
import {
  type ClaudeBeforeCall,
  type ClaudeToolInput,
  type ClaudeToolResult,
  claudeGenericResponse,
  claudeToolResponse,
} from './tool-shapes.ts'

/** What a `toResponse` is told besides the arguments and the result. */
export interface ClaudeResponseCall {
  readonly cwd: string
  readonly before: ClaudeBeforeCall
}

/**
 * A tool's Claude Code mapping, as a tool package declares it (`host: { claude: … }` in `defineTool`).
 * Without `toInput` the arguments are the input; without `fromInput` the input is the arguments; without
 * `toResponse` the response is the one Claude Code reports for the tool `name` (`claudeToolResponse`).
 */
export interface ClaudeToolMapping {
  readonly name: string
  toInput?(args: unknown, cwd: string): ClaudeToolInput
  fromInput?(input: Readonly<ClaudeToolInput>): ClaudeToolInput
  toResponse?(args: unknown, result: ClaudeToolResult, call: ClaudeResponseCall): unknown
}

/**
 * The registered tools' Claude declarations as @tack/tools' `HostMappingReader` for `claude` reads them
 * (structurally: this package imports no @tack package but session's types).
 */
export interface ClaudeToolReader {
  /** The tool's declared mapping; undefined when it declares none. */
  mapping(
    tackName: string,
  ): { toResponse?(args: unknown, result: ClaudeToolResult, call: ClaudeResponseCall): unknown } | undefined
  /** Its Claude name: the declared one, else its own. */
  name(tackName: string): string
  /** A call's arguments as its `tool_input`: `toInput`'s answer, else (or when it fails, warned) the raw arguments. */
  input(tackName: string, args: unknown, cwd: string): ClaudeToolInput
  warn(message: string): void
}

const isObject = (v: unknown): v is ClaudeToolInput =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** No tool declares anything: each keeps its own name and raw arguments (a transcript rendered without tools). */
export const UNDECLARED_CLAUDE_TOOLS: ClaudeToolReader = {
  mapping: () => undefined,
  name: (tackName) => tackName,
  input: (_tackName, args) => (isObject(args) ? { ...args } : {}),
  warn: () => {},
}

/** The `tool_response` of a call: the tool's own `toResponse`, else Claude Code's shape for its name. */
export function claudeResponse(
  tools: ClaudeToolReader,
  tackName: string,
  args: unknown,
  result: ClaudeToolResult,
  cwd: string,
  before: ClaudeBeforeCall = {},
): unknown {
  const mapping = tools.mapping(tackName)
  if (!mapping) return claudeGenericResponse(result)
  if (mapping.toResponse) {
    try {
      return mapping.toResponse(args, result, { cwd, before })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      tools.warn(`tool "${tackName}": host.claude.toResponse threw (${message}); {output, isError} is shown`)
      return claudeGenericResponse(result)
    }
  }
  return claudeToolResponse(tools.name(tackName), tools.input(tackName, args, cwd), result, cwd, before)
}
