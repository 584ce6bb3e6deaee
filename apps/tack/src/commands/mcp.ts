// `tack mcp list|get|add|remove|approve` (docs/decisions/0225-mcp-server-sources.md): the servers this workspace would start,
// where each comes from and whether it may start; a server's definition with `env` and `headers`
// values hidden (mask.ts); edits of the user's or the project's file; approval of a project server.
// `list` starts every server that would start, to say whether it connects and how many tools it has
// (mcp/live.ts; `--no-connect` skips it); `get` and the rest start nothing.
import { UsageError } from '../args.ts'
import type { CommandIO } from '../io.ts'
import { recordApproval } from '../mcp/approvals.ts'
import { maskedDefinition } from '../mcp/mask.ts'
import { withLiveState } from '../mcp/live.ts'
import { mcpRows, type McpRow, resolveFor, rowsOf } from '../mcp/rows.ts'
import { printableIO } from '../printable.ts'
import { resolveSettings } from '../settings.ts'
import { addServer, removeServer } from './mcp-add.ts'
import { MCP_HELP, MCP_USAGE, parseMcpArgs } from './mcp-args.ts'

export async function mcpCommand(argv: readonly string[], terminal: CommandIO): Promise<number> {
  const args = parseMcpArgs(argv)
  if (args.help) {
    terminal.out(MCP_HELP)
    return 0
  }
  // names, commands and files come from files a repository controls; JSON escapes itself
  const io = args.json ? terminal : printableIO(terminal)
  const flags = {
    ...(args.config !== undefined ? { config: args.config } : {}),
    ...(args.cwd !== undefined ? { cwd: args.cwd } : {}),
    ...(args.profile !== undefined ? { profile: args.profile } : {}),
    ...(args.trust !== undefined ? { trust: args.trust } : {}),
  }
  const resolved = await resolveSettings(flags, io.env, io.cwd)
  const at = { paths: resolved.paths, cwd: resolved.cwd }
  switch (args.sub) {
    case 'list': {
      const resolution = resolveFor(resolved, io.env)
      const rows = args.noConnect
        ? rowsOf(resolution)
        : await withLiveState(rowsOf(resolution), resolution, resolved.settings)
      // a file that cannot be read at all is said as `tack run` and `tack doctor` say it, and fails the list
      for (const problem of resolution.problems) io.err(`tack: ${problem}\n`)
      if (args.json) io.out(`${JSON.stringify(rows.map(jsonRow))}\n`)
      else if (rows.length === 0 && resolution.problems.length === 0)
        io.out('no MCP servers configured (tack mcp add NAME -- CMD, or a .mcp.json)\n')
      else for (const r of rows) io.out(`${listLine(r)}\n`)
      return resolution.problems.length > 0 ? 1 : 0
    }
    case 'get': {
      const [name] = args.positionals
      if (name === undefined) throw new UsageError('usage: tack mcp get NAME')
      const rows = mcpRows(resolved, io.env).filter((r) => r.name === name)
      if (rows.length === 0) throw new UsageError(`mcp get: no MCP server named ${name}`)
      if (args.json) io.out(`${JSON.stringify(rows.map(jsonRow))}\n`)
      else io.out(rows.map(details).join('\n'))
      return 0
    }
    case 'add':
      io.out(`${await addServer(args, at)}\n`)
      return 0
    case 'remove':
      io.out(`${await removeServer(args, at)}\n`)
      return 0
    case 'approve': {
      const [name] = args.positionals
      if (name === undefined) throw new UsageError('usage: tack mcp approve NAME')
      const row = mcpRows(resolved, io.env).find((r) => r.name === name && r.source === 'project')
      if (!row) throw new UsageError(`mcp approve: no MCP server named ${name} in this workspace's .mcp.json`)
      // a server tack cannot use is fixed first: approving it would record a definition that never starts
      if (row.state === 'invalid') throw new UsageError(`mcp approve: ${row.message}`)
      recordApproval(resolved.paths.home, resolved.cwd, name, row.written)
      const still = resolved.trust.trusted
        ? ''
        : ' (the workspace is not trusted, so it starts once you run tack trust)'
      io.out(`approved MCP server ${name} from ${row.file} as it is now defined${still}\n`)
      return 0
    }
    default:
      throw new UsageError(MCP_USAGE)
  }
}

function listLine(r: McpRow): string {
  const line = `${r.name.padEnd(16)} ${r.sourceLabel.padEnd(20)} ${r.type.padEnd(5)} ${r.state.padEnd(14)} ${liveText(r).padEnd(20)} ${r.target}`
  // an invalid server's reason, like a failed one's error, on the next line
  const why = r.error ?? (r.state === 'invalid' ? r.message : undefined)
  return why === undefined ? line : `${line}\n  ${why}`
}

/** `connected (N tools)`, `failed` (the error on the next line) or `not connected`. */
function liveText(r: McpRow): string {
  return r.live === 'connected' ? `connected (${r.tools ?? 0} tools)` : r.live
}

function details(r: McpRow): string {
  const lines = [
    `${r.name}`,
    `  source:  ${r.sourceLabel}${r.file === r.sourceLabel ? '' : ` (${r.file})`}`,
    `  state:   ${r.state}${r.message ? ` — ${r.message}` : ''}`,
    `  live:    ${r.live}`,
    `  type:    ${r.type}`,
  ]
  const shown = maskedDefinition(r.written)
  if (shown && typeof shown === 'object')
    for (const [key, value] of Object.entries(shown as Record<string, unknown>))
      if (key !== 'type')
        lines.push(`  ${`${key}:`.padEnd(8)} ${typeof value === 'string' ? value : JSON.stringify(value)}`)
  return `${lines.join('\n')}\n`
}

function jsonRow(r: McpRow): Record<string, unknown> {
  const { written, ...rest } = r
  return { ...rest, definition: maskedDefinition(written) }
}
