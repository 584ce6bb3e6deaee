// The interactive mode's MCP approval question (55-mcp.md M6, docs/decisions/0250-mcp-approval-prompt.md):
// `tack` started in a trusted folder whose `.mcp.json` names servers not yet approved (or changed since)
// asks about each once, before the screen comes up — its name, whether it is new or changed, and what
// it runs or reaches as the file writes it, `env`/`headers` values hidden (mask.ts). Yes records the
// approval exactly as `tack mcp approve` does (approvals.ts), all approves every waiting server of this
// project, anything else skips it for this run. The boot then resolves again and starts what was
// approved. An untrusted folder asks nothing (the trust question comes first, and nothing of its
// `.mcp.json` starts); headless runs and `approve: all` never ask. Ctrl-C or Ctrl-D leaves tack and
// decides nothing, as the trust question does.
import type { CommandIO } from '../io.ts'
import { printable } from '../printable.ts'
import type { Resolved } from '../settings.ts'
import { recordApproval } from './approvals.ts'
import { rowsOf } from './rows.ts'
import { type McpResolution, resolveMcpServers, type SkippedServer } from './resolve.ts'
import { endpointKeyVariables } from './mask.ts'
import { describeServer } from './server-description.ts'

/** `abort`: Ctrl-C or Ctrl-D at the question — leave tack. */
export type McpApprovalAnswer = 'done' | 'abort'

/** The project servers a person could approve now: readable, trusted, waiting for an approval. */
export function waitingServers(resolution: McpResolution): readonly SkippedServer[] {
  return resolution.skipped.filter(
    (s) => s.source === 'project' && (s.reason === 'unapproved' || s.reason === 'changed'),
  )
}

export async function askMcpApprovals(
  resolved: Pick<Resolved, 'settings' | 'paths' | 'cwd' | 'trust'>,
  io: CommandIO,
): Promise<McpApprovalAnswer> {
  if (!io.askLine || !resolved.trust.trusted) return 'done'
  const resolution = resolveMcpServers({
    settings: resolved.settings,
    paths: resolved.paths,
    cwd: resolved.cwd,
    env: io.env,
    trust: resolved.trust,
  })
  const waiting = waitingServers(resolution)
  if (waiting.length === 0) return 'done'
  const targets = new Map(rowsOf(resolution).map((r) => [`${r.source}:${r.name}`, r.target]))
  const keyVariables = endpointKeyVariables(resolved.settings.plugins)
  for (const [index, server] of waiting.entries()) {
    const described = describeServer(server, targets.get(`project:${server.name}`) ?? '?', keyVariables)
    const more = waiting.length - index > 1 ? `, [a]ll ${waiting.length - index} waiting` : ''
    const answer = await io.askLine(
      `tack: ${printable(described)}\nStart it and remember the approval? [y]es${more}, [N]o (skip for this run) `,
    )
    if (answer === undefined) {
      io.err('\n') // Ctrl-C or Ctrl-D: nothing more decided
      return 'abort'
    }
    const choice = answer.trim().toLowerCase()
    if (choice === 'a' || choice === 'all') {
      for (const rest of waiting.slice(index)) approve(resolved, io, rest)
      return 'done'
    }
    if (choice === 'y' || choice === 'yes') approve(resolved, io, server)
    else
      io.err(
        `tack: MCP server ${printable(server.name)} skipped for this run (tack mcp approve ${printable(server.name)} approves it)\n`,
      )
  }
  return 'done'
}

function approve(resolved: Pick<Resolved, 'paths' | 'cwd'>, io: CommandIO, server: SkippedServer): void {
  try {
    recordApproval(resolved.paths.home, resolved.cwd, server.name, server.written)
    io.err(`tack: approved MCP server ${printable(server.name)} from .mcp.json as it is now defined\n`)
  } catch (error) {
    // not recorded: the server stays off and the question comes again next time, which is safe
    io.err(
      `tack: could not record the approval of MCP server ${printable(server.name)}: ${(error as Error).message}\n`,
    )
  }
}
