// The one stderr line per run that says what an untrusted workspace held back and how to trust it
// (80-cli.md §4a.2, issue 9 item 1): project config keys ignored, project hooks, plugins, mods and MCP
// servers (`.mcp.json`, 55-mcp.md M6) not run.
import { collectHooks, type HookRow } from './commands/hooks.ts'
import { resolveMcpServers } from './mcp/resolve.ts'
import type { Resolved } from './settings.ts'
import { printable } from './printable.ts'
import { HOW_TO_TRUST } from './workspace-trust.ts'

/** Rows of project hooks that do not run only because the workspace is untrusted. */
export function heldBackHooks(rows: readonly HookRow[]): HookRow[] {
  return rows.filter((r) => !r.willRun && r.untrustedWorkspace === true)
}

/**
 * The notice as built once for a start: the interactive trust question shows it and the run then prints
 * the same one, so both describe what was held back at the moment the user was asked.
 */
export interface HeldBack {
  /** The notice line; undefined when nothing is held back. */
  readonly notice: string | undefined
}

export async function untrustedNotice(
  r: Resolved,
  env: NodeJS.ProcessEnv,
  heldBackPlugins: readonly string[],
  heldBackMods: readonly string[] = [],
): Promise<string | undefined> {
  if (r.trust.trusted) return undefined
  const hooks = heldBackHooks(await collectHooks(r.settings, r.paths, env, r.cwd, r.trust))
  const refused = r.settings.refused
  const mcp = mcpServers(r, env)
  const parts: string[] = []
  if (refused) parts.push(`ignored from ${refused.file}: ${refused.keys.join(', ')}`)
  const notRun = [
    hooks.length ? `${hooks.length} project hook(s)` : '',
    heldBackPlugins.length ? `${heldBackPlugins.length} project plugin(s)` : '',
    heldBackMods.length ? `${heldBackMods.length} project mod(s)` : '',
    mcp ? `${mcp} project MCP server(s)` : '',
  ].filter(Boolean)
  if (notRun.length) parts.push(`not run: ${notRun.join(', ')}`)
  if (parts.length === 0) return undefined
  return printable(`tack: workspace ${r.cwd} is not trusted — ${parts.join('; ')} — ${HOW_TO_TRUST}`) + '\n'
}

/** How many of the workspace's `.mcp.json` servers do not start only because it is not trusted. */
function mcpServers(r: Resolved, env: NodeJS.ProcessEnv): number {
  const { skipped } = resolveMcpServers({
    settings: r.settings,
    paths: r.paths,
    cwd: r.cwd,
    env,
    trust: r.trust,
  })
  return skipped.filter((s) => s.reason === 'untrusted').length
}
