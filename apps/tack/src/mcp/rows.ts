// One row per configured server, for `tack mcp list|get` and `tack doctor`: the resolution (resolve.ts)
// told as a person reads it — where it is from, what it runs or reaches (as written, `${VAR}`
// unexpanded), and whether this workspace starts it.
import type { Resolved } from '../settings.ts'
import { isRecord, type McpSource } from './definition.ts'
import { type McpResolution, resolveMcpServers, SOURCE_LABEL, type SkipReason } from './resolve.ts'

export interface McpRow {
  readonly name: string
  readonly source: McpSource
  readonly sourceLabel: string
  readonly file: string
  readonly type: string
  /** The command line or URL as written. */
  readonly target: string
  readonly state: 'starts' | 'disabled' | 'not approved' | 'changed' | 'untrusted' | 'invalid' | 'shadowed'
  /**
   * What starting it now gave (live.ts, `tack mcp list`): `connected` with its tools count, `failed` with
   * the error; `not connected` where it was not tried (a server that does not start, `--no-connect`).
   */
  readonly live: 'not connected' | 'connected' | 'failed'
  readonly tools?: number
  readonly error?: string
  readonly message?: string
  readonly written?: unknown
}

const SKIP_STATE: Readonly<Record<SkipReason, McpRow['state']>> = {
  untrusted: 'untrusted',
  unapproved: 'not approved',
  changed: 'changed',
  shadowed: 'shadowed',
  invalid: 'invalid',
}

/** The servers of a command's resolved settings (`tack mcp`, `tack doctor`), as a run resolves them. */
export function resolveFor(
  r: Pick<Resolved, 'settings' | 'paths' | 'cwd' | 'trust'>,
  env: NodeJS.ProcessEnv,
): McpResolution {
  return resolveMcpServers({ settings: r.settings, paths: r.paths, cwd: r.cwd, env, trust: r.trust })
}

export function mcpRows(
  r: Pick<Resolved, 'settings' | 'paths' | 'cwd' | 'trust'>,
  env: NodeJS.ProcessEnv,
): McpRow[] {
  return rowsOf(resolveFor(r, env))
}

export function rowsOf(resolution: McpResolution): McpRow[] {
  const rows: McpRow[] = [
    ...Object.values(resolution.servers).map((s) => ({
      ...common(s.name, s.source, s.file, s.written),
      state: s.definition.enabled === false ? ('disabled' as const) : ('starts' as const),
      ...(s.approval
        ? { message: s.approval === 'approve: all' ? 'approved by plugins.mcp.approve: all' : 'approved' }
        : {}),
    })),
    ...resolution.skipped.map((s) => ({
      ...common(s.name, s.source, s.file, s.written),
      state: SKIP_STATE[s.reason],
      message: s.message,
    })),
  ]
  return rows.sort((a, b) => a.name.localeCompare(b.name) || order(a.source) - order(b.source))
}

const order = (s: McpSource) => ['user', 'project', 'codex'].indexOf(s)

function common(name: string, source: McpSource, file: string, written: unknown) {
  const w = isRecord(written) ? written : {}
  const url = typeof w.url === 'string' ? w.url : undefined
  const type =
    typeof w.type === 'string' ? w.type : url !== undefined && w.command === undefined ? 'http' : 'stdio'
  const args = Array.isArray(w.args)
    ? w.args.map((a) => (/[\s"']/.test(String(a)) ? JSON.stringify(String(a)) : String(a)))
    : []
  const target = url ?? [typeof w.command === 'string' ? w.command : '?', ...args].join(' ')
  return {
    name,
    source,
    sourceLabel: SOURCE_LABEL[source],
    file,
    type,
    target,
    live: 'not connected' as const,
    ...(written !== undefined ? { written } : {}),
  }
}
