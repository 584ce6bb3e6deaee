// `tack`, `tack -c`, `tack -r [id]`: the interactive terminal UI (80-cli.md §2, §5). Settings, trust,
// plugins, mods, hooks and the model check are those of `tack run` (resolveRunTarget, bootAgentCommand);
// the UI package is imported only here, so no other command pays for it. Without a terminal on stdin
// and stdout there is nobody to show a screen to: one line points to `tack run`, exit 2.
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import { applyResumeFlags, effortFlagWarning, flagSwitches } from '../resume-switches.ts'
import { agentOptionsFor, bootAgentCommand } from '../agent-boot.ts'
import { checkRuleTools, parseCliRules } from '../cli-rules.ts'
import { CliError } from '../errors.ts'
import type { CommandIO } from '../io.ts'
import { resumableSessionsOf } from '../session-ref.ts'
import { resumedModeNotices } from '../run/permission-report.ts'
import { SIGNAL_EXIT_CODES } from '../signal-exit.ts'
import { resolveSettings } from '../settings.ts'
import type { ToolRegistry } from '@tack/tools'
import { askToTrust } from '../trust-question.ts'
import { askMcpApprovals } from '../mcp/approval-question.ts'
import { otherFolder } from '../slash/session-commands.ts'
import { resolveRunTarget } from './run-target.ts'

export const NO_TERMINAL =
  'tack: the interactive UI needs a terminal on stdin and stdout; for pipes and scripts use `tack run "task"`\n'

export async function interactiveCommand(
  flags: CommonFlags,
  io: CommandIO,
  /** `tack -r` without an id: open the resume picker. */
  pick: boolean,
): Promise<number> {
  if (flags.json) throw new UsageError('--json belongs to headless runs: tack run --json "task"')
  if (flags.image)
    throw new UsageError(
      '--image belongs to headless runs: tack run --image PATH "task"; in the UI, paste or drop the image file on the prompt',
    )
  if (!io.isInteractiveTerminal?.()) {
    io.err(NO_TERMINAL)
    return 2
  }
  const cliRules = parseCliRules(flags)
  const target = async () =>
    pick
      ? { resolved: await resolveSettings(flags, io.env, io.cwd), resume: undefined }
      : await resolveRunTarget(flags, io)
  let { resolved, resume } = await target()
  // An untrusted folder with project settings asks once; a yes loads them (80-cli.md §7.1).
  const trustOutcome = await askToTrust(resolved, flags, io)
  if (trustOutcome.answer === 'abort') return SIGNAL_EXIT_CODES.SIGINT ?? 130
  if (trustOutcome.answer === 'trusted') ({ resolved, resume } = await target())
  // A trusted folder's .mcp.json servers not yet approved are asked about once; the boot below starts
  // what was approved (55-mcp.md M6, docs/decisions/0250-mcp-approval-prompt.md).
  if ((await askMcpApprovals(resolved, io)) === 'abort') return SIGNAL_EXIT_CODES.SIGINT ?? 130
  if (pick && flags['no-session'])
    throw new UsageError('--no-session keeps nothing to resume: drop it, or drop -r')
  const { settings, cwd, paths } = resolved
  const tuiConfig = settings.plugins.tui
  if (tuiConfig === false)
    throw new CliError(
      'tack needs the tui plugin for its interactive UI, which the config turns off (plugins.tui: false)',
    )
  // Warnings go to stderr until the screen is up, then into the transcript (stderr would tear it).
  let sink: ((line: string) => void) | undefined
  const warn = (text: string) => (sink ? sink(text) : io.err(text.endsWith('\n') ? text : `${text}\n`))
  // the notice the trust question was built from is the one printed: it is not built a second time
  const { heldBack } = trustOutcome
  const { booted, model } = await bootAgentCommand({
    resolved,
    flags,
    io,
    warn,
    cliRules,
    ...(heldBack ? { heldBack } : {}),
  })
  const { ctx } = booted
  try {
    checkRuleTools(cliRules, ctx.get('tools') as ToolRegistry | undefined)
    const { InteractiveApp, TuiPlugin } = await import('@tack/tui')
    try {
      await ctx.plugin(TuiPlugin, tuiConfig ?? {})
    } catch (error) {
      throw new CliError(`plugin "tui" failed to load: ${(error as Error).message}`)
    }
    // Interactive default: writes and bash ask (80-cli.md §4.4).
    const permissionMode = settings.permissionMode ?? 'ask'
    const options = agentOptionsFor(settings, model, permissionMode, { interactive: true })
    let flagsApplied = false
    const { costOf, contextWindowOf } = await import('@tack/llm')
    const app = new InteractiveApp(
      {
        ctx,
        cwd,
        model,
        permissionMode,
        historyDir: paths.history,
        open: async (target) => {
          if (!target.resume) {
            const created = await ctx.agents.create({
              cwd,
              options,
              // opened and left, or /clear then left: nothing to list (docs/decisions/0320-small-things.md)
              storeFromFirstTurn: true,
              ...(target.cleared ? { source: 'clear' as const } : {}),
            })
            if (!flagsApplied) {
              flagsApplied = true
              const effortWarning = effortFlagWarning(
                ctx,
                created.agent,
                flags.effort ? settings.effort : undefined,
              )
              if (effortWarning) warn(effortWarning)
            }
            return created
          }
          // Only this folder's sessions open in this boot (its trust, config and plugins); `/resume`
          // says so first, this is the last word (docs/decisions/0140-acp-trust-per-session.md).
          const stored = (await ctx.sessions.list()).find((s) => s.id === target.resume)
          if (stored && stored.cwd !== cwd) throw new CliError(otherFolder(stored.id, stored.cwd))
          const handle = await ctx.agents.resume(target.resume, options)
          // `tack -c --model X` (or `-r ID`, or the start-up picker): the flags are switches of the session
          // the person continues, said on screen; a later /resume is not what they were typed for.
          if (!flagsApplied) {
            flagsApplied = true
            for (const line of await applyResumeFlags(ctx, handle.agent, flagSwitches(flags, settings)))
              warn(line)
            const effortWarning = effortFlagWarning(
              ctx,
              handle.agent,
              flags.effort ? settings.effort : undefined,
            )
            if (effortWarning) warn(effortWarning)
          }
          // An imported log's wider mode is dropped, an earlier wider switch announced (0119).
          const notices = resumedModeNotices(handle.agent, permissionMode)
          for (const notice of [notices.dropped, notices.wider]) if (notice) warn(notice)
          return handle
        },
        // A session that never ran a turn (opened and left) is not among them (resumableIn).
        sessions: async () => resumableSessionsOf(await ctx.sessions.list(), cwd),
        redirectWarnings: (next) => {
          sink = next
        },
      },
      {
        env: io.env,
        start: pick ? { pick: true } : resume ? { resume: resume.id } : {},
        pricing: { costOf, contextWindowOf },
      },
    )
    await app.run()
    const last = app.lastSession
    // The screen is gone; its transcript stays in the scrollback. Say how to come back to it.
    if (last?.used && !flags['no-session']) io.out(`Resume this session with: tack -r ${last.id}\n`)
    return app.signal ? (SIGNAL_EXIT_CODES[app.signal] ?? 1) : 0
  } finally {
    await booted.close()
  }
}
