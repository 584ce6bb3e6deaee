// `tack acp`: serves the Agent Client Protocol on stdio (50-acp.md), so an editor drives tack sessions.
// Settings come from the launch folder like `tack run` (config files, flags); each ACP session then
// runs in the folder the client names. Stdout belongs to the protocol: every message of tack's own
// goes to stderr. Exit 0 when the client closes stdin.
import { readFileSync } from 'node:fs'
import type { ToolsMode } from '@tack/tools'
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import { CliError } from '../errors.ts'
import type { CommandIO } from '../io.ts'
import { bootAgentCommand } from '../agent-boot.ts'
import { resolveSettings } from '../settings.ts'

export async function acpCommand(args: string[], flags: CommonFlags, io: CommandIO): Promise<number> {
  if (args.length > 0) throw new UsageError(`tack acp takes no arguments (got "${args.join(' ')}")`)
  if (flags.json || flags.print !== undefined || flags.continue || flags.resume !== undefined)
    throw new UsageError(
      'tack acp speaks ACP on stdio; --json, -p, -c and -r do not apply (the client loads sessions)',
    )
  // Stdout belongs to the protocol from here on, before any plugin loads (50-acp.md requirement 1).
  const { AcpPlugin, redirectConsoleToStderr, serveStdio } = await import('@tack/acp')
  redirectConsoleToStderr()
  const resolved = await resolveSettings(flags, io.env, io.cwd)
  const { settings } = resolved
  const err = (text: string) => io.err(text.endsWith('\n') ? text : `${text}\n`)
  const acpConfig = resolved.settings.plugins.acp
  if (acpConfig === false)
    throw new CliError('tack acp needs the acp plugin, which the config turns off (plugins.acp: false)')
  const { booted, model } = await bootAgentCommand({ resolved, flags, io, warn: err })
  const { ctx } = booted
  try {
    try {
      await ctx.plugin(AcpPlugin, acpConfig ?? {})
    } catch (error) {
      throw new CliError(`plugin "acp" failed to load: ${(error as Error).message}`)
    }
    const server = ctx.acp.server({
      version: tackVersion(),
      model,
      permissionMode: settings.permissionMode ?? 'ask',
      // The registry's mode already merges `--tools-mode`, `toolsMode:` and `plugins.tools.mode`.
      toolsMode: (ctx.tools as { config?: { mode?: ToolsMode } }).config?.mode ?? 'native',
      warn: err,
    })
    await serveStdio(server)
    return 0
  } finally {
    await booted.close()
  }
}

function tackVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}
