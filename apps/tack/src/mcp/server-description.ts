// One line saying what a project MCP server waiting for approval would do, for the TUI's question and
// ACP's permission request (docs/decisions/0250-mcp-approval-prompt.md): its name, new or changed, what
// it runs (command and arguments) or reaches (URL) as `.mcp.json` writes it — `${VAR}` unexpanded, so no
// expanded secret is shown — and its `env` and `headers`: literal values hidden, `${VAR}` references as
// written, and a warning naming the variables whose names say secret (`*_KEY`, `*_TOKEN`, …) it would be
// sent (mask.ts, docs/decisions/0265-mcp-secret-values.md).
import { isRecord } from './definition.ts'
import { maskedDefinition, secretReferences } from './mask.ts'
import type { SkippedServer } from './resolve.ts'

export interface ServerDescription {
  readonly name: string
  readonly state: 'new' | 'changed'
  /** `runs CMD ARGS…` or `reaches URL`. */
  readonly action: string
  /**
   * `env TOKEN=<hidden>`, `headers X-Trace=${OPENAI_API_KEY}`, then `WARNING: sends your secret
   * variables OPENAI_API_KEY` when a reference names one; empty when there are none.
   */
  readonly secrets: readonly string[]
}

/** `keyVariables`: variables known to hold a key whatever their name (`endpointKeyVariables`). */
export function serverDescription(
  server: SkippedServer,
  target: string,
  keyVariables: ReadonlySet<string> = new Set(),
): ServerDescription {
  const masked = maskedDefinition(server.written)
  const w = isRecord(masked) ? masked : {}
  const secrets = ['env', 'headers']
    .filter((key) => isRecord(w[key]) && Object.keys(w[key]).length > 0)
    .map(
      (key) =>
        `${key} ${Object.entries(w[key] as Record<string, unknown>)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(' ')}`,
    )
  const risky = secretReferences(server.written, keyVariables)
  if (risky.length) secrets.push(`WARNING: sends your secret variables ${risky.join(', ')} to this server`)
  return {
    name: server.name,
    state: server.reason === 'changed' ? 'changed' : 'new',
    action: typeof w.url === 'string' && w.command === undefined ? `reaches ${target}` : `runs ${target}`,
    secrets,
  }
}

/** `MCP server X in .mcp.json (new): runs npx -y pkg; env TOKEN=<hidden>` */
export function describeServer(
  server: SkippedServer,
  target: string,
  keyVariables: ReadonlySet<string> = new Set(),
): string {
  const d = serverDescription(server, target, keyVariables)
  const state = d.state === 'changed' ? 'changed since it was approved' : 'new'
  return [`MCP server ${d.name} in .mcp.json (${state}): ${d.action}`, ...d.secrets].join('; ')
}
