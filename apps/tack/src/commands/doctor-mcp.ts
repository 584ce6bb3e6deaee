// `tack doctor`'s lines about MCP servers (docs/decisions/0225-mcp-server-sources.md): each configured server with its source
// and whether this workspace starts it. A file that cannot be read or a server that cannot be used (an
// unset `${VAR}`, a missing command) is a problem; a project server waiting for trust or approval is a
// warning with its fix. Whether a server answers is the running plugin's to find out, not doctor's.
import { resolveFor, rowsOf } from '../mcp/rows.ts'
import type { Resolved } from '../settings.ts'

export function reportMcp(
  r: Resolved,
  env: NodeJS.ProcessEnv,
  line: (label: string, value: string) => void,
  problems: string[],
  warnings: string[],
): void {
  if (r.settings.plugins.mcp === false) {
    line('mcp servers', 'off (plugins.mcp: false)')
    return
  }
  const resolution = resolveFor(r, env)
  const rows = rowsOf(resolution).filter((row) => row.state !== 'shadowed')
  line(
    'mcp servers',
    rows.length ? rows.map((row) => `${row.name} (${row.sourceLabel}, ${row.state})`).join(', ') : '(none)',
  )
  problems.push(...resolution.problems)
  for (const s of resolution.skipped) {
    if (s.reason === 'invalid') problems.push(s.message)
    else if (s.reason !== 'shadowed') warnings.push(s.message)
  }
}
