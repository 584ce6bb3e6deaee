// How a tool looks to another host's hooks (docs/decisions/0210-host-protocol-packages.md): per host, the
// tool's name there and, optionally, how its arguments become that host's `tool_input`, how an
// `updatedInput` comes back as arguments, and what that host reports as its `tool_response`. The types
// are generic on purpose: each host's own shapes live in its protocol package (`@tack/claude-protocol`,
// `@tack/codex-protocol`), whose precise mapping types fit these; the bridges, the mod host and the
// transcripts read a tool only through its declaration, so a new tool needs no edit to any of them.
import { isJsonObject } from './arguments.ts'
import type { ToolResultView } from './types.ts'

/** The hosts whose hook protocols tack speaks. */
export const TOOL_HOSTS = ['claude', 'codex'] as const
export type ToolHostName = (typeof TOOL_HOSTS)[number]

/** What `fromInput` is told: the call's folder and its arguments before the rewrite. */
export interface HostInputCall {
  readonly cwd: string
  readonly original: unknown
}

/** What `toResponse` is told: the call's folder and what the host's bridge knew before it ran (its own shape). */
export interface HostResponseCall {
  readonly cwd: string
  readonly before: unknown
}

/**
 * One host's view of a tool. Without `toInput` the host sees the raw arguments; without `fromInput` an
 * `updatedInput` is taken as the arguments; without `toResponse` the host protocol package decides
 * (Claude: the response of the Claude tool `name`). A host may answer asynchronously (Codex reads the
 * file an `apply_patch` stands for), so the results are `unknown` here and checked by the reader.
 */
export interface ToolHostMapping {
  readonly name: string
  toInput?(args: unknown, cwd: string): unknown
  fromInput?(input: Readonly<Record<string, unknown>>, call: HostInputCall): unknown
  toResponse?(args: unknown, result: ToolResultView, call: HostResponseCall): unknown
}

/** A tool's mappings, by host; a host it has none for shows it under its own name and raw arguments. */
export type ToolHosts = { readonly [H in ToolHostName]?: ToolHostMapping }

const MAPPING_FUNCTIONS = ['toInput', 'fromInput', 'toResponse'] as const

/** What is wrong with a `host` declaration, if anything (`defineTool` and `register` refuse it). */
export function hostDeclarationProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (!isJsonObject(value)) return `host must be an object {${TOOL_HOSTS.join('?, ')}?}`
  for (const [host, mapping] of Object.entries(value)) {
    if (!(TOOL_HOSTS as readonly string[]).includes(host))
      return `host.${host} is not a known host (expected ${TOOL_HOSTS.join(', ')})`
    if (!isJsonObject(mapping))
      return `host.${host} must be an object {name, toInput?, fromInput?, toResponse?}`
    const { name } = mapping
    if (typeof name !== 'string' || name.trim() === '')
      return `host.${host}.name must be a non-empty string (got ${JSON.stringify(name)})`
    for (const key of MAPPING_FUNCTIONS) {
      if (mapping[key] !== undefined && typeof mapping[key] !== 'function')
        return `host.${host}.${key} must be a function when given`
    }
  }
  return undefined
}
