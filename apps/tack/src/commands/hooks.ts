// `tack hooks list` and `tack hooks trust` (80-cli §7.1): every Claude Code and Codex hook found, its
// source file and whether it will run — a hooks file that cannot be read is a row of its own (issue 9
// item 8); trust records Codex hook hashes (and, with --project, the workspace, as `tack trust` does).
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import type { Settings } from '../config/load.ts'
import type { CommandIO } from '../io.ts'
import { printableIO } from '../printable.ts'
import type { TackPaths } from '../paths.ts'
import { resolveSettings } from '../settings.ts'
import type { WorkspaceTrust } from '../workspace-trust.ts'

export interface HookRow {
  readonly dialect: 'claude' | 'codex'
  readonly event: string
  readonly matcher?: string
  readonly command: string
  readonly source: string
  readonly willRun: boolean
  readonly why?: string
  /** A hooks file that could not be read (the row stands for the whole file). */
  readonly broken?: true
  /** Held back only because the workspace is not trusted. */
  readonly untrustedWorkspace?: true
  /** An event tack never fires (the bridge README's *Not fired* list): configured, never run. */
  readonly notFired?: true
}

export async function collectHooks(
  settings: Settings,
  paths: TackPaths,
  env: NodeJS.ProcessEnv,
  cwd: string,
  trust: WorkspaceTrust,
): Promise<HookRow[]> {
  const [claude, codex] = await Promise.all([import('@tack/hooks-claude'), import('@tack/hooks-codex')])
  const common = { tackHome: paths.home, env, cwd }
  const withTrust = (s: Record<string, unknown> | false) =>
    s === false ? s : { ...s, assumeTrusted: trust.trusted || s.assumeTrusted === true }
  const rows: HookRow[] = [
    ...claude.listClaudeHooks({ ...common, settings: withTrust(settings.plugins.hooksClaude) }),
    ...(await codex.listCodexHooks({ ...common, settings: withTrust(settings.plugins.hooksCodex) })),
  ]
  const untrusted = new Set([claude.UNTRUSTED_PROJECT_HOOKS, codex.UNTRUSTED_WORKSPACE])
  const marked = rows.map((r) =>
    r.why && untrusted.has(r.why)
      ? { ...r, untrustedWorkspace: true as const }
      : // Both bridges word an event tack never fires this way; the Codex rows say so themselves.
        !r.willRun && r.why?.startsWith(NOT_FIRED_BY_TACK)
        ? { ...r, notFired: true as const }
        : r,
  )
  return diceRunsNatively(settings) ? await markDiceHooks(marked) : marked
}

/** How both bridges begin the reason of a hook for an event tack never fires. */
const NOT_FIRED_BY_TACK = 'not fired by tack: '

/** Whether the agent-dice plugin is on (config `plugins.dice`: not `false`, not `enabled: false`). */
function diceRunsNatively(settings: Settings): boolean {
  const dice = settings.plugins.dice
  return dice !== false && (dice as { enabled?: unknown } | undefined)?.enabled !== false
}

/**
 * agent-dice's own Claude and Codex hooks do not run in tack while its plugin does (it rolls natively,
 * so a turn end rolls once): the list says so instead of "runs" (issue 10 item 8).
 */
async function markDiceHooks(rows: HookRow[]): Promise<HookRow[]> {
  const { isAgentDiceHook } = await import('agent-dice/tack')
  return rows.map((r) =>
    !r.broken && r.willRun && isAgentDiceHook({ command: r.command })
      ? { ...r, willRun: false, why: DICE_SKIP }
      : r,
  )
}

/** Why agent-dice's own hooks are skipped; the words of the plugin's own skip. */
export const DICE_SKIP = 'agent-dice runs natively in tack (agent-dice/tack), so its own hook is skipped'

export async function hooksCommand(args: string[], flags: CommonFlags, terminal: CommandIO): Promise<number> {
  const [sub] = args
  // A hook's command and source come from settings files a repository may have written; JSON escapes itself.
  const io = flags.json ? terminal : printableIO(terminal)
  const { settings, paths, cwd, trust } = await resolveSettings(flags, io.env, io.cwd)
  switch (sub) {
    case 'list': {
      const rows = await collectHooks(settings, paths, io.env, cwd, trust)
      if (flags.json) {
        io.out(`${JSON.stringify(rows)}\n`)
        return 0
      }
      if (rows.length === 0) {
        io.out('no hooks found\n')
        return 0
      }
      for (const r of rows) {
        const state = r.broken
          ? 'BROKEN   '
          : r.willRun
            ? 'runs     '
            : r.notFired
              ? 'not fired'
              : 'skipped  '
        io.out(
          `${r.dialect.padEnd(6)} ${r.event.padEnd(17)} ${(r.matcher ?? '*').padEnd(12)} ${state}  ${r.command}\n` +
            `       from ${r.source}${r.why ? ` — ${r.why}` : ''}\n`,
        )
      }
      return 0
    }
    case 'trust': {
      const { trustCodexHooks } = await import('@tack/hooks-codex')
      if (flags.project) {
        const { trustCommand } = await import('./trust.ts')
        await trustCommand([cwd], { force: flags.force }, io)
      }
      io.out(
        `${await trustCodexHooks({ tackHome: paths.home, env: io.env, cwd, settings: settings.plugins.hooksCodex })}\n`,
      )
      return 0
    }
    default:
      throw new UsageError('usage: tack hooks list | tack hooks trust [--project]')
  }
}
