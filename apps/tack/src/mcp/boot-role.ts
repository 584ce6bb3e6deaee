// The `mcp` catalog entry's boot role (docs/decisions/0206-boot-loop.md): the servers this run starts are
// resolved from every source (resolve.ts) and fixed over the user's `plugins.mcp.servers`, so the
// plugin gets them expanded, trusted and approved and never reads a file itself. What was skipped is
// said once on stderr (`tack: mcp: …`), and the variables whose values went into a server's `env`,
// `headers` or bearer token are declared to `ctx.secrets`, so bash does not hand them to the model's
// commands and tack's output redacts them (docs/decisions/0225-mcp-server-sources.md).
import { declareSecrets } from '@tack/kernel'
import type { BootOptions, BootRole } from '../boot-role.ts'
import { type McpResolution, pluginServers, resolutionWarnings, resolveMcpServers } from './resolve.ts'

// One resolution per boot: `overrides` and `loaded` see the same options object.
const resolutions = new WeakMap<BootOptions, McpResolution>()

function resolutionOf(opts: BootOptions): McpResolution {
  let r = resolutions.get(opts)
  if (!r) {
    r = resolveMcpServers({
      settings: opts.settings,
      paths: opts.paths,
      cwd: opts.cwd,
      env: opts.env,
      trust: opts.trust,
    })
    resolutions.set(opts, r)
  }
  return r
}

export const MCP_BOOT_ROLE: BootRole = {
  // A run with no server to start and nothing skipped to report imports no MCP code at all.
  loads: (opts) => {
    const r = resolutionOf(opts)
    return Object.keys(r.servers).length > 0 || r.skipped.length > 0 || r.problems.length > 0
  },
  // The stdio servers are spawned before any plugin loads, so they start while tack boots; the plugin's
  // connections take them over (docs/decisions/0240-mcp-early-start.md). Nothing of the SDK is loaded here.
  early: async (opts) => {
    const r = resolutionOf(opts)
    const servers = pluginServers(r)
    if (!Object.values(servers).some((def) => def.type === 'stdio' && def.enabled !== false)) return undefined
    const { endUntakenServers, spawnEarlyServers } = await import('@tack/mcp/early')
    spawnEarlyServers(servers, secretVariablesOf(r))
    return endUntakenServers
  },
  overrides: (opts) => ({ servers: pluginServers(resolutionOf(opts)) }),
  loaded: (ctx, opts) => {
    const r = resolutionOf(opts)
    const variables = secretVariablesOf(r)
    if (variables.length) declareSecrets(ctx, { variables })
    const logger = ctx.logger('mcp')
    for (const line of resolutionWarnings(r)) logger.warn(line)
  },
}

/** The variables whose values went into a server's `env`, `headers` or bearer token. */
function secretVariablesOf(r: McpResolution): string[] {
  return [...new Set(Object.values(r.servers).flatMap((s) => s.secretVariables))]
}
