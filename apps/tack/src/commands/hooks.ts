// `tack hooks list` and `tack hooks trust [--project]` (80-cli §7.1): every Claude Code and Codex hook
// found, its source file and whether it will run; trust records project trust and Codex hook hashes.
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import type { Settings } from '../config/load.ts'
import type { CommandIO } from '../io.ts'
import type { TackPaths } from '../paths.ts'
import { resolveSettings } from '../settings.ts'

export interface HookRow {
  readonly dialect: 'claude' | 'codex'
  readonly event: string
  readonly matcher?: string
  readonly command: string
  readonly source: string
  readonly willRun: boolean
  readonly why?: string
}

export async function collectHooks(
  settings: Settings,
  paths: TackPaths,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<HookRow[]> {
  const [{ listClaudeHooks }, { listCodexHooks }] = await Promise.all([
    import('@tack/hooks-claude'),
    import('@tack/hooks-codex'),
  ])
  const common = { tackHome: paths.home, env, cwd }
  return [
    ...(await listClaudeHooks({ ...common, settings: settings.plugins.hooksClaude })),
    ...(await listCodexHooks({ ...common, settings: settings.plugins.hooksCodex })),
  ]
}

export async function hooksCommand(args: string[], flags: CommonFlags, io: CommandIO): Promise<number> {
  const [sub] = args
  const { settings, paths, cwd } = await resolveSettings(flags, io.env, io.cwd)
  switch (sub) {
    case 'list': {
      const rows = await collectHooks(settings, paths, io.env, cwd)
      if (flags.json) {
        io.out(`${JSON.stringify(rows)}\n`)
        return 0
      }
      if (rows.length === 0) {
        io.out('no hooks found\n')
        return 0
      }
      for (const r of rows) {
        io.out(
          `${r.dialect.padEnd(6)} ${r.event.padEnd(17)} ${(r.matcher ?? '*').padEnd(12)} ${r.willRun ? 'runs   ' : 'skipped'}  ${r.command}\n` +
            `       from ${r.source}${r.why ? ` — ${r.why}` : ''}\n`,
        )
      }
      return 0
    }
    case 'trust': {
      const [{ trustClaudeProject }, { trustCodexHooks }] = await Promise.all([
        import('@tack/hooks-claude'),
        import('@tack/hooks-codex'),
      ])
      const common = { tackHome: paths.home, env: io.env, cwd, project: flags.project === true }
      io.out(`${await trustClaudeProject({ ...common, settings: settings.plugins.hooksClaude })}\n`)
      io.out(`${await trustCodexHooks({ ...common, settings: settings.plugins.hooksCodex })}\n`)
      return 0
    }
    default:
      throw new UsageError('usage: tack hooks list | tack hooks trust [--project]')
  }
}
