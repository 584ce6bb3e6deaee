// Where an MCP server was configured and what its source file said. The server's own shape is
// `@tack/mcp`'s (packages/mcp/src/definition.ts), imported as a type only: it is erased when the code
// runs, so resolving where servers come from loads no client and `tack mcp list --no-connect` and
// `--version` stay free of the SDK.
import type { McpServerDefinition } from '@tack/mcp'

export type { McpServerDefinition }

/** Where a server was configured; equal names: `user` wins over `project` over `codex`. */
export type McpSource = 'user' | 'project' | 'codex'

export const SOURCE_PRECEDENCE: readonly McpSource[] = ['user', 'project', 'codex']

/** One server as a source file wrote it, expanded, or the reason it could not be read. */
export type SourceEntry =
  | {
      readonly ok: true
      readonly name: string
      readonly source: McpSource
      readonly file: string
      readonly definition: McpServerDefinition
      /** The definition as written (before `${VAR}` expansion): what an approval is bound to. */
      readonly written: unknown
      /** Environment variables its `env`/`headers` values were read from. */
      readonly secretVariables: readonly string[]
    }
  | {
      readonly ok: false
      readonly name: string
      readonly source: McpSource
      readonly file: string
      /** The entry as written, for `tack mcp list|get` (masked there). */
      readonly written: unknown
      readonly problem: string
    }

/** A server its file names but tack cannot use; `problem` names the key, never a value. */
export function unusableEntry(
  at: { readonly name: string; readonly source: McpSource; readonly file: string },
  written: unknown,
  problem: string,
): SourceEntry {
  // the empty name is shown as "" so the line still reads (it is refused: server-name rule, @tack/mcp/names)
  const shown = at.name === '' ? '""' : at.name
  return { ok: false, ...at, written, problem: `MCP server ${shown} in ${at.file}: ${problem}` }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
