// Tools as Codex's hooks see them, read from each tool's own declaration (`host.codex`,
// docs/decisions/0210-host-protocol-packages.md): its Codex name, its `tool_input`, and the way back
// from an `updatedInput`. A tool that declares no Codex mapping keeps its own name and raw arguments
// (`read`, `mcp__*`, a plugin's tool), and an `updatedInput` for it is taken as its arguments.
// Declarations are a plugin's code: a `toInput` that throws is reported through `warn` and the raw
// arguments shown; a `fromInput` that throws is a problem the bridge reports and ignores (C5).
import type { CodexToolInput } from './tool-shapes.ts'

/** What `fromInput` is told: the call's folder and its arguments before the rewrite. */
export interface CodexInputCall {
  readonly cwd: string
  readonly original: unknown
}

/**
 * A tool's Codex mapping, as a tool package declares it (`host: { codex: … }` in `defineTool`). Either
 * function may answer asynchronously (an apply_patch input is computed against the file as it is).
 * `fromInput` throws an Error whose message says why an `updatedInput` cannot be read back.
 */
export interface CodexToolMapping {
  readonly name: string
  toInput?(args: unknown, cwd: string): CodexToolInput | Promise<CodexToolInput>
  fromInput?(
    input: CodexToolInput,
    call: CodexInputCall,
  ): Record<string, unknown> | Promise<Record<string, unknown>>
}

interface DeclaredMapping {
  readonly name?: unknown
  toInput?(args: unknown, cwd: string): unknown
  fromInput?(input: CodexToolInput, call: CodexInputCall): unknown
}

/** Where tools are looked up by their tack name: the tool registry (structurally; no import of it here). */
export interface CodexToolDeclarations {
  get(name: string): { readonly host?: { readonly codex?: DeclaredMapping } } | undefined
}

export type CodexArguments = { ok: true; arguments: unknown } | { ok: false; problem: string }

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export class CodexTools {
  readonly #tools: CodexToolDeclarations | undefined
  readonly #warn: (message: string) => void

  constructor(tools: CodexToolDeclarations | undefined, warn: (message: string) => void = () => {}) {
    this.#tools = tools
    this.#warn = warn
  }

  #mapping(tackName: string): DeclaredMapping | undefined {
    const mapping = this.#tools?.get(tackName)?.host?.codex
    return mapping && typeof mapping.name === 'string' && mapping.name !== '' ? mapping : undefined
  }

  /** The Codex name of a tool: the one it declares, else its own. */
  name(tackName: string): string {
    return (this.#mapping(tackName)?.name as string | undefined) ?? tackName
  }

  /**
   * The `tool_input` a Codex hook sees for a call. For apply_patch the patch is computed against the
   * file as it is now, so call it before the body runs (PreToolUse) and reuse the value for PostToolUse.
   */
  async input(tackName: string, args: unknown, cwd: string): Promise<unknown> {
    const mapping = this.#mapping(tackName)
    if (!mapping?.toInput) return args ?? {}
    try {
      const input = await mapping.toInput(args, cwd)
      if (isObject(input)) return input
      this.#warn(`tool "${tackName}": host.codex.toInput must return an object; its raw arguments are shown`)
    } catch (error) {
      this.#warn(
        `tool "${tackName}": host.codex.toInput threw (${messageOf(error)}); its raw arguments are shown`,
      )
    }
    return args ?? {}
  }

  /**
   * Reads a PreToolUse `updatedInput` (the Codex shape) back into the tool's arguments; `original` (the
   * call's arguments) supplies what the Codex shape does not carry (bash's timeout and description).
   */
  async arguments(
    tackName: string,
    updatedInput: unknown,
    original: unknown,
    cwd: string,
  ): Promise<CodexArguments> {
    if (!isObject(updatedInput)) return { ok: false, problem: 'updatedInput must be an object' }
    const mapping = this.#mapping(tackName)
    if (!mapping?.fromInput) return { ok: true, arguments: updatedInput }
    try {
      const args = await mapping.fromInput(updatedInput, { cwd, original })
      if (isObject(args)) return { ok: true, arguments: args }
      return { ok: false, problem: `tool "${tackName}": host.codex.fromInput must return an object` }
    } catch (error) {
      return { ok: false, problem: messageOf(error) }
    }
  }
}
