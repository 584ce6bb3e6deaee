// `tack acp`: serves the Agent Client Protocol on stdio (50-acp.md), so an editor drives tack sessions.
// Each ACP session runs in the folder the client names, under that folder's own settings and workspace
// trust: the folder `tack acp` was started in boots first (its config errors and model check fail the
// start), and every other folder a session names is booted on first use, as `tack run --cwd` would boot
// it (docs/decisions/0140-acp-trust-per-session.md). Stdout belongs to the protocol: every message of
// tack's own goes to stderr. Exit 0 when the client closes stdin.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { AcpWorkspace } from '@tack/acp'
import type { ToolsMode } from '@tack/tools'
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import type { Booted } from '../boot.ts'
import { CliError } from '../errors.ts'
import type { CommandIO } from '../io.ts'
import { bootAgentCommand } from '../agent-boot.ts'
import { resolveSettings, type Resolved } from '../settings.ts'
import { projectMcpApprovals } from '../mcp/acp-approvals.ts'

export async function acpCommand(args: string[], flags: CommonFlags, io: CommandIO): Promise<number> {
  if (args.length > 0) throw new UsageError(`tack acp takes no arguments (got "${args.join(' ')}")`)
  if (flags.json || flags.print !== undefined || flags.continue || flags.resume !== undefined)
    throw new UsageError(
      'tack acp speaks ACP on stdio; --json, -p, -c and -r do not apply (the client loads sessions)',
    )
  // Stdout belongs to the protocol from here on, before any plugin loads (50-acp.md requirement 1).
  const { redirectConsoleToStderr, serveStdio } = await import('@tack/acp')
  redirectConsoleToStderr()
  const err = (text: string) => io.err(text.endsWith('\n') ? text : `${text}\n`)
  const resolved = await resolveSettings(flags, io.env, io.cwd)
  const launch = await bootWorkspace(resolved, flags, io, err)
  // One boot per folder, made on the first session there; a failed boot is tried again next time.
  const boots = new Map<string, Promise<Booted & AcpWorkspace>>([[resolved.cwd, Promise.resolve(launch)]])
  const workspace = (cwd: string): Promise<AcpWorkspace> => {
    const key = resolve(cwd)
    let boot = boots.get(key)
    if (!boot) {
      boot = resolveSettings({ ...flags, cwd: key }, io.env, io.cwd).then((r) =>
        bootWorkspace(r, flags, io, err),
      )
      boot.catch(() => boots.delete(key))
      boots.set(key, boot)
    }
    return boot
  }
  try {
    const server = launch.ctx.acp.server({
      version: tackVersion(),
      ...launch.defaults,
      warn: err,
      workspace,
    })
    await serveStdio(server, undefined, { maxMessageBytes: launch.ctx.acp.config.maxMessageBytes, warn: err })
    return 0
  } finally {
    const all = await Promise.allSettled(boots.values())
    for (const boot of all) if (boot.status === 'fulfilled') await boot.value.close()
  }
}

/** Boots one folder for ACP sessions: its settings, trust, plugins and model, plus AcpPlugin. */
async function bootWorkspace(
  resolved: Resolved,
  flags: CommonFlags,
  io: CommandIO,
  err: (text: string) => void,
): Promise<Booted & AcpWorkspace> {
  const { settings } = resolved
  const acpConfig = settings.plugins.acp
  if (acpConfig === false)
    throw new CliError(
      `tack acp needs the acp plugin, which the config of ${resolved.cwd} turns off (plugins.acp: false)`,
    )
  const { AcpPlugin } = await import('@tack/acp')
  const { booted, model } = await bootAgentCommand({ resolved, flags, io, warn: err })
  const { ctx } = booted
  try {
    await ctx.plugin(AcpPlugin, acpConfig ?? {})
  } catch (error) {
    await booted.close()
    throw new CliError(`plugin "acp" failed to load: ${(error as Error).message}`)
  }
  // The folder's .mcp.json servers waiting for approval are asked about per session (55-mcp.md M6).
  const projectMcp = projectMcpApprovals(resolved, io.env, ctx)
  return {
    ...booted,
    ...(projectMcp ? { projectMcp } : {}),
    defaults: {
      model,
      effort: settings.effort ?? 'default',
      permissionMode: settings.permissionMode ?? 'ask',
      // The registry's mode already merges `--tools-mode`, `toolsMode:` and `plugins.tools.mode`.
      toolsMode: (ctx.tools as { config?: { mode?: ToolsMode } }).config?.mode ?? 'native',
    },
  }
}

function tackVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}
