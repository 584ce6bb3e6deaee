// The one reader of tools' host declarations (`host`, host.ts; docs/decisions/0210-host-protocol-packages.md),
// for every host: a tool's name there, its `tool_input`, and an `updatedInput` read back as its arguments.
// A tool with no mapping (with a name) for the host keeps its own name and raw arguments there.
//
// A declaration is a plugin's code: a `toInput` that throws or answers a non-object is reported through
// `warn` and the raw arguments shown; a `fromInput` that fails is a problem the caller must refuse (it
// cannot run a rewrite it cannot read). The protocol packages are leaves and cannot import this: the
// bridges and the mod host build a reader and hand it to them (`@tack/claude-protocol`'s
// `claudeResponse` and transcript take it structurally).
import { isJsonObject } from './arguments.ts'
import type { ToolHostMapping, ToolHostName, ToolHosts } from './host.ts'
import type { ToolAgent } from './types.ts'

type HostInput = Record<string, unknown>

/** Where tools are looked up by their tack name: the tool registry, or any map of declarations. */
export interface HostDeclarations {
  /** `agent`: whose own tools count too (a tool only some agents see, e.g. an ACP session's MCP tools). */
  get(name: string, agent?: ToolAgent): { readonly host?: ToolHosts } | undefined
}

export type HostArguments =
  | { readonly ok: true; readonly arguments: HostInput }
  | { readonly ok: false; readonly problem: string }

/** What a declared function did: answered, or threw (or rejected). */
type Outcome = { readonly answer: unknown } | { readonly error: unknown }

function attempt(run: () => unknown): Outcome {
  try {
    return { answer: run() }
  } catch (error) {
    return { error }
  }
}

async function attemptAsync(run: () => unknown): Promise<Outcome> {
  try {
    return { answer: await run() }
  } catch (error) {
    return { error }
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
const rawArguments = (args: unknown): HostInput => (isJsonObject(args) ? { ...args } : {})

export class HostMappingReader {
  readonly host: ToolHostName
  readonly warn: (message: string) => void
  readonly #tools: HostDeclarations | undefined

  /** `tools` undefined: every tool keeps its own name and arguments. */
  constructor(
    host: ToolHostName,
    tools: HostDeclarations | undefined,
    warn: (message: string) => void = () => {},
  ) {
    this.host = host
    this.#tools = tools
    this.warn = warn
  }

  /**
   * This reader for one call's agent: its own tools (registered for an audience, like an ACP session's
   * MCP servers) are read too, so a hook sees them as it sees everyone's.
   */
  forAgent(agent: ToolAgent | undefined): HostMappingReader {
    const tools = this.#tools
    if (!tools || agent === undefined) return this
    return new HostMappingReader(this.host, { get: (name) => tools.get(name, agent) }, this.warn)
  }

  /** The tool's mapping for this host, when it declares one with a name (registered tools are checked, test maps are not). */
  mapping(tackName: string): ToolHostMapping | undefined {
    const mapping = this.#tools?.get(tackName)?.host?.[this.host]
    return mapping && typeof mapping.name === 'string' && mapping.name !== '' ? mapping : undefined
  }

  /** The tool's name on this host: the one it declares, else its own. */
  name(tackName: string): string {
    return this.mapping(tackName)?.name ?? tackName
  }

  /** A call's arguments (validated, defaults filled) as the host's `tool_input`, from a declaration that answers at once. */
  input(tackName: string, args: unknown, cwd: string): HostInput {
    const toInput = this.mapping(tackName)?.toInput
    return toInput
      ? this.#input(
          tackName,
          args,
          attempt(() => toInput(args, cwd)),
        )
      : rawArguments(args)
  }

  /** The same from a declaration that may answer later (Codex's apply_patch input reads the file as it is). */
  async inputAsync(tackName: string, args: unknown, cwd: string): Promise<HostInput> {
    const toInput = this.mapping(tackName)?.toInput
    if (!toInput) return rawArguments(args)
    return this.#input(tackName, args, await attemptAsync(() => toInput(args, cwd)))
  }

  /** An `updatedInput` (the host's shape, replacing the whole input) as the tool's arguments; `original`: the call's. */
  arguments(tackName: string, input: unknown, cwd: string, original: unknown): HostArguments {
    const fromInput = this.mapping(tackName)?.fromInput
    if (!isJsonObject(input) || !fromInput) return this.#undeclaredArguments(input)
    return this.#arguments(
      tackName,
      attempt(() => fromInput(input, { cwd, original })),
    )
  }

  /** The same through a declaration that may answer later (Codex applies a patch to the file as it is). */
  async argumentsAsync(
    tackName: string,
    input: unknown,
    cwd: string,
    original: unknown,
  ): Promise<HostArguments> {
    const fromInput = this.mapping(tackName)?.fromInput
    if (!isJsonObject(input) || !fromInput) return this.#undeclaredArguments(input)
    return this.#arguments(tackName, await attemptAsync(() => fromInput(input, { cwd, original })))
  }

  #input(tackName: string, args: unknown, outcome: Outcome): HostInput {
    const where = `tool "${tackName}": host.${this.host}.toInput`
    if ('error' in outcome)
      this.warn(`${where} threw (${messageOf(outcome.error)}); its raw arguments are shown`)
    else if (isJsonObject(outcome.answer)) return outcome.answer
    else this.warn(`${where} must return an object; its raw arguments are shown`)
    return rawArguments(args)
  }

  #undeclaredArguments(input: unknown): HostArguments {
    return isJsonObject(input)
      ? { ok: true, arguments: { ...input } }
      : { ok: false, problem: 'updatedInput must be an object' }
  }

  #arguments(tackName: string, outcome: Outcome): HostArguments {
    const where = `tool "${tackName}": host.${this.host}.fromInput`
    if ('error' in outcome) return { ok: false, problem: `${where} threw: ${messageOf(outcome.error)}` }
    if (isJsonObject(outcome.answer)) return { ok: true, arguments: outcome.answer }
    return { ok: false, problem: `${where} must return an object` }
  }
}
