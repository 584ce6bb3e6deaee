// The project MCP servers `tack acp` asks an editor about (55-mcp.md M6, docs/decisions/0250-mcp-approval-prompt.md):
// for one booted folder, the `.mcp.json` servers waiting for approval (trusted folder, not approved or
// changed since), each offered once per boot. An approval is recorded exactly as `tack mcp approve`
// records it — for the definition the question showed: a file edited meanwhile is not approved — and the
// server is started in the folder's boot for every session there, its variables declared secret as the
// boot role declares them. An untrusted folder has nothing to ask about (nothing of its `.mcp.json`
// starts before trust, and ACP never asks about trust).
import type { ProjectMcpApprovals, ProjectServerQuestion } from '@tack/acp'
import { declareSecrets } from '@tack/kernel'
import type { McpServers, McpService } from '@tack/mcp'
import type { Context } from 'cordis'
import type { Resolved } from '../settings.ts'
import { definitionHash, recordApproval } from './approvals.ts'
import { waitingServers } from './approval-question.ts'
import { endpointKeyVariables } from './mask.ts'
import { resolveMcpServers } from './resolve.ts'
import { rowsOf } from './rows.ts'
import { serverDescription } from './server-description.ts'

export function projectMcpApprovals(
  resolved: Pick<Resolved, 'settings' | 'paths' | 'cwd' | 'trust'>,
  env: NodeJS.ProcessEnv,
  ctx: Context,
): ProjectMcpApprovals | undefined {
  if (!resolved.trust.trusted) return undefined
  const resolve = () =>
    resolveMcpServers({
      settings: resolved.settings,
      paths: resolved.paths,
      cwd: resolved.cwd,
      env,
      trust: resolved.trust,
    })
  /** Asked (answered or skipped) in this boot: not offered again. */
  const asked = new Set<string>()
  /** The definition each question showed, by name (its hash): the one an approval is for. */
  const shown = new Map<string, string>()
  const logger = ctx.logger('mcp')
  return {
    waiting(): readonly ProjectServerQuestion[] {
      const resolution = resolve()
      const targets = new Map(rowsOf(resolution).map((r) => [`${r.source}:${r.name}`, r.target]))
      return waitingServers(resolution)
        .filter((s) => !asked.has(s.name))
        .map((s) => {
          shown.set(s.name, definitionHash(s.written))
          return serverDescription(
            s,
            targets.get(`project:${s.name}`) ?? '?',
            endpointKeyVariables(resolved.settings.plugins),
          )
        })
    },
    skip(names) {
      for (const name of names) asked.add(name)
    },
    async approve(names) {
      const waiting = waitingServers(resolve())
      for (const name of names) {
        asked.add(name)
        const server = waiting.find((s) => s.name === name)
        if (!server) continue
        if (definitionHash(server.written) !== shown.get(name)) {
          logger.warn('MCP server %s in .mcp.json changed while it was asked about; not approved', name)
          continue
        }
        recordApproval(resolved.paths.home, resolved.cwd, name, server.written)
      }
      const now = resolve().servers
      const started = names.flatMap((name) => (now[name] ? [now[name]] : []))
      if (started.length === 0) return
      const variables = [...new Set(started.flatMap((s) => s.secretVariables))]
      if (variables.length) declareSecrets(ctx, { variables })
      const servers: McpServers = Object.fromEntries(started.map((s) => [s.name, s.definition]))
      await startApproved(ctx, servers)
      for (const s of started) logger.info('MCP server %s from .mcp.json approved and started', s.name)
    },
  }
}

/** Starts `servers` for every agent of the boot, as a plugin of it: they end when the boot closes. */
async function startApproved(ctx: Context, servers: McpServers): Promise<void> {
  // Imported only when a server is approved, as the catalog imports the client.
  const mcp = await import('@tack/mcp')
  const config = (ctx.get('mcp') as McpService | undefined)?.config ?? mcp.McpConfig.parse({})
  let ready: Promise<void> = Promise.resolve()
  const fiber = ctx.plugin({
    name: 'mcp-approved',
    inject: ['tools'],
    apply(inner: Context) {
      const set = mcp.startServers(inner, { config, servers })
      inner.effect(() => () => set.close(), 'approved MCP connections')
      ready = set.ready
    },
  })
  await fiber.await()
  await ready
}
