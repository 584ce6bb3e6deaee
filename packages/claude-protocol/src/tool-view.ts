// Tools as Claude Code's hooks see them, read from each tool's own declaration (`host.claude`,
// docs/decisions/0210-host-protocol-packages.md): its Claude name, its `tool_input`, the way back from an
// `updatedInput` to its arguments, and its `tool_response`. A tool that declares no Claude mapping keeps
// its own name and raw arguments (`run_code`, `mcp__*`, a plugin's tool) and answers `{output, isError}`.
// The hooks bridge, the mod host and the transcript all read tools through this one view, so they agree.
//
// A declaration is a plugin's code: one that throws or answers a wrong shape is reported through `warn`
// and the tool is shown as if it had no mapping; a way back that fails is a problem the caller must
// refuse (it cannot run a rewrite it cannot read).
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

/** A declaration as found on a registered tool: untrusted, so every part is checked before use. */
interface DeclaredMapping {
  readonly name?: unknown
  toInput?(args: unknown, cwd: string): unknown
  fromInput?(
    input: Readonly<ClaudeToolInput>,
    call: { readonly cwd: string; readonly original: unknown },
  ): unknown
  toResponse?(args: unknown, result: ClaudeToolResult, call: ClaudeResponseCall): unknown
}

/** Where tools are looked up by their tack name: the tool registry (structurally; no import of it here). */
export interface ClaudeToolDeclarations {
  get(name: string): { readonly host?: { readonly claude?: DeclaredMapping } } | undefined
}

export type ClaudeArguments =
  | { readonly ok: true; readonly arguments: ClaudeToolInput }
  | { readonly ok: false; readonly problem: string }

const isObject = (v: unknown): v is ClaudeToolInput =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export class ClaudeTools {
  readonly #tools: ClaudeToolDeclarations | undefined
  readonly #warn: (message: string) => void

  /** `tools` undefined: every tool keeps its own name and arguments. */
  constructor(tools: ClaudeToolDeclarations | undefined, warn: (message: string) => void = () => {}) {
    this.#tools = tools
    this.#warn = warn
  }

  #mapping(tackName: string): DeclaredMapping | undefined {
    const mapping = this.#tools?.get(tackName)?.host?.claude
    return mapping && typeof mapping.name === 'string' && mapping.name !== '' ? mapping : undefined
  }

  /** The Claude Code name of a tool: the one it declares, else its own. */
  name(tackName: string): string {
    return (this.#mapping(tackName)?.name as string | undefined) ?? tackName
  }

  /** A call's arguments (validated, defaults filled) as the `tool_input` of its Claude tool. */
  input(tackName: string, args: unknown, cwd: string): ClaudeToolInput {
    const raw = (): ClaudeToolInput => (isObject(args) ? { ...args } : {})
    const mapping = this.#mapping(tackName)
    if (!mapping?.toInput) return raw()
    try {
      const input = mapping.toInput(args, cwd)
      if (isObject(input)) return input
      this.#warn(`tool "${tackName}": host.claude.toInput must return an object; its raw arguments are shown`)
    } catch (error) {
      this.#warn(
        `tool "${tackName}": host.claude.toInput threw (${messageOf(error)}); its raw arguments are shown`,
      )
    }
    return raw()
  }

  /** An `updatedInput` (the Claude shape, replacing the whole input) as the tool's arguments. */
  arguments(
    tackName: string,
    input: Readonly<ClaudeToolInput>,
    cwd: string,
    original: unknown,
  ): ClaudeArguments {
    const mapping = this.#mapping(tackName)
    if (!mapping?.fromInput) return { ok: true, arguments: { ...input } }
    try {
      const args = mapping.fromInput(input, { cwd, original })
      if (isObject(args)) return { ok: true, arguments: args }
      return { ok: false, problem: `tool "${tackName}": host.claude.fromInput must return an object` }
    } catch (error) {
      return { ok: false, problem: `tool "${tackName}": host.claude.fromInput threw: ${messageOf(error)}` }
    }
  }

  /** The `tool_response` of a call: the tool's own `toResponse`, else Claude Code's shape for its name. */
  response(
    tackName: string,
    args: unknown,
    result: ClaudeToolResult,
    cwd: string,
    before: ClaudeBeforeCall = {},
  ): unknown {
    const mapping = this.#mapping(tackName)
    if (!mapping) return claudeGenericResponse(result)
    if (mapping.toResponse) {
      try {
        return mapping.toResponse(args, result, { cwd, before })
      } catch (error) {
        this.#warn(
          `tool "${tackName}": host.claude.toResponse threw (${messageOf(error)}); {output, isError} is shown`,
        )
        return claudeGenericResponse(result)
      }
    }
    return claudeToolResponse(this.name(tackName), this.input(tackName, args, cwd), result, cwd, before)
  }
}
