// `tack run "task"` (also `tack -p`): one headless turn (plus continuations). Prints the final answer on
// stdout; with --json, every session event as one JSON line as it is appended, then a result line.
// Exit 0 when the turn completed or a hook blocked the prompt (run-exit.ts); 1 when it ended otherwise;
// 128 + the signal's number when a signal ended it (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
import { jsonRejectionNotice, runExitCode } from './run-exit.ts'
import { lastAssistantText, type SessionEvent, type TurnEndReason, blockText } from '@tack/session'
import type { CommonFlags } from '../args.ts'
import { type CommandIO, outputRedactor } from '../io.ts'
import { agentOptionsFor, bootAgentCommand } from '../agent-boot.ts'
import { checkRuleTools, parseCliRules } from '../cli-rules.ts'
import {
  HEADLESS_PERMISSION_MODE,
  permissionModeReport,
  resumedModeNotices,
} from '../run/permission-report.ts'
import { diagnoseSettings, runProgress, servedBy } from '../run/progress.ts'
import { type RunInput, readRunInput } from '../run/stdin-task.ts'
import { readImageFlags, withImages } from '../run/image-flags.ts'
import { compactCommand, runCompactCommand } from '../run/compact-command.ts'
import { printable } from '../printable.ts'
import { SIGNAL_EXIT_CODES } from '../signal-exit.ts'
import { EXIT_STDOUT_CLOSED } from '../stream-guard.ts'
import { ABORTED, type Agent, settledOrAborted } from '@tack/agent'
import type { ToolRegistry } from '@tack/tools'
import { type CommandResult, parseSlashCommand } from '@tack/commands'
import type { Context } from 'cordis'
import { ChunkRedaction } from '../chunk-redaction.ts'
import { eventLine, resultLine, runStats, startLine } from './run-json.ts'
import { resolveRunTarget } from './run-target.ts'
import { applyResumeFlags, effortFlagWarning, flagSwitches } from '../resume-switches.ts'

export { JSON_OUTPUT_VERSION } from './run-json.ts'

/**
 * Signals that end a run like Ctrl-C (issue 9.4): the turn is cancelled — the running command's
 * process group is killed, the turn is closed `aborted`, the session flushed — and tack exits with the
 * shell's code for the signal (signal-exit.ts). A second signal while that happens exits at once.
 */
export { SIGNAL_EXIT_CODES }

export async function runCommand(args: string[], flags: CommonFlags, io: CommandIO): Promise<number> {
  const startedAt = performance.now()
  // Images first: a wrong path is a usage error before stdin is waited on or anything boots.
  const images = await readImageFlags(flags.image, io.cwd)
  const input = withImages(await readRunInput(args, io), images)
  const cliRules = parseCliRules(flags)
  const { resolved, resume } = await resolveRunTarget(flags, io)
  const { settings, cwd } = resolved
  const { reporter, err } = runProgress(io, flags, settings)
  const compactWith = compactCommand(input)
  // `tack run "/help"` needs no model: its check waits until the command turns out to need one.
  const slash = compactWith === undefined && parseSlashCommand(input.task) !== undefined
  const { booted, model, modelProblem } = await bootAgentCommand({
    resolved,
    flags,
    io,
    warn: err,
    cliRules,
    deferModelCheck: slash,
  })
  const { ctx } = booted
  try {
    checkRuleTools(cliRules, ctx.get('tools') as ToolRegistry | undefined)
    if (model !== undefined) diagnoseSettings(reporter, resolved, model, servedBy(ctx, model))
    const permissionMode = settings.permissionMode ?? HEADLESS_PERMISSION_MODE
    const options = agentOptionsFor(settings, model, permissionMode, { headless: true })
    const handle = resume
      ? await ctx.agents.resume(resume.id, options)
      : await ctx.agents.create({ cwd, options })
    const agent = handle.agent
    // A resumed session keeps the switches its log holds (/model, /permissions, /tools-mode); a flag given
    // now is a new switch, logged like theirs.
    if (resume)
      for (const line of await applyResumeFlags(ctx, agent, flagSwitches(flags, settings), flags))
        err(`${line}\n`)
    const effortWarning = effortFlagWarning(
      ctx,
      agent,
      settings.effort && flags.effort ? settings.effort : undefined,
    )
    if (effortWarning) err(`tack: ${effortWarning}\n`)
    const modeNotices = resume ? resumedModeNotices(agent, permissionMode) : {}
    if (modeNotices.dropped) err(modeNotices.dropped)
    const inForce = permissionModeReport(agent, permissionMode)
    reporter.diagnostic(inForce.diagnostic)
    const json = flags.json === true
    // A secret split across two streamed deltas is redacted too: a text chunk waits for the next event.
    const recut = new ChunkRedaction(outputRedactor(io))
    const printEvent = (e: SessionEvent) => {
      for (const r of recut.push(e)) io.out(eventLine(r.event))
    }
    if (json) {
      io.out(
        startLine({
          sessionId: agent.session.id,
          model: agent.model,
          workspace: agent.cwd,
          permissionMode: inForce.mode,
          tools: toolNames(ctx),
          ...(resume ? { resumedFrom: { eventCount: resume.eventCount } } : {}),
        }),
      )
      // The session may already hold events of this run (a session-start hook's context, a resumed
      // log's recovery tail): print those first; a resumed session's history is not repeated.
      for (const e of agent.session.events().slice(resume?.eventCount ?? 0)) printEvent(e)
      agent.session.subscribe(printEvent)
    } else {
      agent.session.subscribe((e) => {
        const notice = userNotice(e)
        if (notice) err(`${printable(notice)}\n`)
      })
    }
    reporter.attach(ctx, agent.session)
    // A reader that leaves (`| head -1`) ends the turn like Ctrl-C, quietly (stream-guard.ts).
    io.onStdoutClosed?.(() => agent.cancel('stdout closed'))
    let interruptedBy: NodeJS.Signals | undefined
    const compacting = new AbortController()
    const onSignal = (signal: NodeJS.Signals) => {
      if (interruptedBy) process.exit(SIGNAL_EXIT_CODES[signal])
      interruptedBy = signal
      agent.cancel('interrupted')
      compacting.abort()
    }
    const signals = Object.keys(SIGNAL_EXIT_CODES) as NodeJS.Signals[]
    for (const signal of signals) process.on(signal, onSignal)
    const start = agent.session.length
    /**
     * A run that sent nothing to the model: dispose, and leave no empty session behind. Answers whether
     * the command recorded something in a session it then discarded.
     */
    const endWithoutTurn = async (): Promise<{ discardedRecord: boolean }> => {
      for (const signal of signals) process.off(signal, onSignal)
      const recorded = agent.session.length > start
      await handle.dispose('exit')
      // `tack run "/help"` opened a session only to run the command in: leave none behind, so a later
      // `tack run -c` continues the session the person worked in, not this empty one.
      const discarded = !resume && !agent.session.events().some((e) => e.type === 'turn/start')
      if (discarded) await ctx.sessionStore?.remove(agent.session.id).catch(() => {})
      return { discardedRecord: discarded && recorded }
    }
    // `tack run "/name args"`: a registered slash command, or a `ui/command` listener (a mod's
    // command.run) answering it. `/compact` comes first here: headless, its outcome is shaped like a
    // turn (progress, `--json` result line); the registry's /compact serves the UI and ACP. An unknown name is a prompt.
    const command =
      compactWith === undefined ? await runSlashCommand(ctx, agent, input, compacting.signal) : undefined
    if (command !== undefined && command.kind !== 'prompt') {
      const { discardedRecord } = await endWithoutTurn()
      // A switch (`/permissions yolo`) recorded in that throwaway session changed nothing that lasts:
      // saying "set to yolo" would let the person believe the next run is in yolo (0119).
      const result = discardedRecord && command.kind === 'text' ? discardedSwitch(input.task) : command
      const code = printCommandResult(io, json, agent.session.id, result)
      // Interrupted (while the MCP servers started, say): the shell's code for the signal, as a turn's.
      return interruptedBy ? (SIGNAL_EXIT_CODES[interruptedBy] ?? 130) : code
    }
    if (modelProblem) {
      // the command (or an unknown /name) goes to the model after all: the check every run makes at start
      await endWithoutTurn()
      throw modelProblem
    }
    // Before any tool can run, not before a command that only shows or changes the mode.
    if (modeNotices.wider) err(modeNotices.wider)
    const sending =
      compactWith === undefined
        ? agent.send({
            // a command's prompt keeps the --image files after its text
            content:
              command?.kind === 'prompt'
                ? withImages({ task: command.text, content: command.text }, images).content
                : input.content,
            source: { kind: 'user' },
          })
        : runCompactCommand(ctx, agent, compactWith, compacting.signal)
    // A signal that came before the prompt was sent (while a command was looked up) found the agent idle,
    // where cancel does nothing: cancelled now, the prompt is dropped without a turn (AL-23).
    if (interruptedBy) agent.cancel('interrupted')
    const outcome = await sending
    for (const signal of signals) process.off(signal, onSignal)
    reporter.finish()
    const turnEvents = agent.session.events().slice(start)
    const answer =
      'answer' in outcome ? outcome.answer : (lastAssistantText(turnEvents, { nonEmpty: true }) ?? '')
    await handle.dispose('exit')
    const { costOf } = await import('@tack/llm')
    const stats = runStats(turnEvents, agent.model, costOf)
    if (json) {
      for (const r of recut.end()) io.out(eventLine(r.event))
      io.out(
        resultLine({
          sessionId: agent.session.id,
          reason: outcome.reason,
          answer,
          durationMs: Math.round(performance.now() - startedAt),
          stats,
        }),
      )
      const notice = jsonRejectionNotice(outcome.reason)
      if (notice) io.err(notice)
      if (interruptedBy) io.err('tack: interrupted\n')
    } else {
      // Only a completed turn has an answer: text before an error is an intermediate remark.
      // On a terminal the answer's control characters are written out (an escape sequence in it would be
      // obeyed: a retitle, a clipboard write); piped on, it is the model's text exactly.
      const shown = io.stdoutIsTerminal?.() ? printable(answer) : answer
      if (shown && outcome.reason.kind === 'completed') io.out(shown.endsWith('\n') ? shown : `${shown}\n`)
      // Ctrl-C (or SIGTERM, SIGHUP) ended it: said in a word, not as the turn's `aborted` end.
      if (interruptedBy) err('tack: interrupted\n')
      else if (outcome.reason.kind !== 'completed' && !io.stdoutClosed?.())
        err(`tack: the turn ended ${printable(describeReason(outcome.reason))}\n`)
      if (!io.stdoutClosed?.())
        reporter.summary({
          usage: stats.usage,
          ...(stats.costUsd !== undefined ? { costUsd: stats.costUsd } : {}),
          durationMs: performance.now() - startedAt,
        })
    }
    if (interruptedBy) return SIGNAL_EXIT_CODES[interruptedBy] ?? 130
    if (io.stdoutClosed?.()) return EXIT_STDOUT_CLOSED
    return runExitCode(outcome.reason)
  } finally {
    reporter.finish()
    await booted.close()
  }
}

/** The result of a headless `/name args`, or undefined for a prompt (not a command, or no such command). */
async function runSlashCommand(
  ctx: Context,
  agent: Agent,
  input: RunInput,
  signal: AbortSignal,
): Promise<CommandResult | undefined> {
  const parsed = parseSlashCommand(input.task)
  if (!parsed) return undefined
  // Piped stdin adds to the arguments, as it adds to /compact's instructions (`cat notes | tack run "/x"`).
  // (--image files are not arguments: they follow a prompt the command answers with)
  const piped =
    typeof input.content === 'string'
      ? []
      : input.content
          .slice(1)
          .filter((block) => block.type === 'text')
          .map(blockText)
  const args = [parsed.args, ...piped].filter(Boolean).join('\n')
  // An MCP server's prompt is a command once its server is ready: the servers start with the boot and
  // are waited for (each at most its bound) before a command is looked up (docs/decisions/0240-mcp-early-start.md).
  // Ctrl-C or SIGTERM stops that wait at once.
  const mcp = ctx.get('mcp') as { ready?: Promise<void> } | undefined
  if (mcp?.ready && (await settledOrAborted(mcp.ready, signal)) === ABORTED)
    return { kind: 'error', message: 'interrupted while the MCP servers were starting' }
  const result = await ctx.commands.run(agent, parsed.name, args, {
    surface: 'headless',
    columns: process.stdout.columns ?? 80,
    signal,
  })
  return result.kind === 'unknown' ? undefined : result
}

/** The error for a command whose change went into a new session that ends with this run. */
function discardedSwitch(task: string): CommandResult {
  const name = task.trim().split(/\s/, 1)[0]
  return {
    kind: 'error',
    message: `${name} changes a session, and this run opened a new one that ends now, so nothing was changed. Use tack run -c ${shellQuote(task.trim())} to change your last session (-r ID for another), or a flag such as --permission-mode for one run.`,
  }
}

/** `text` as one shell word, for a command line a person can paste. */
function shellQuote(text: string): string {
  return /^[\w./=-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`
}

/** A command's answer on stdout (an error on stderr, exit 1); `--json`: one `command` line. */
function printCommandResult(io: CommandIO, json: boolean, sessionId: string, result: CommandResult): number {
  const error =
    result.kind === 'error'
      ? result.message
      : result.kind === 'text' || result.kind === 'choose'
        ? undefined
        : `/${result.kind} needs the interactive UI (tack)`
  // a list to pick from is shown as its text: there is no picker here
  const text = result.kind === 'text' || result.kind === 'choose' ? result.text : ''
  if (json) io.out(`${JSON.stringify({ type: 'command', sessionId, ...(error ? { error } : { text }) })}\n`)
  // /help lists skills and commands named by files a repository holds; their names reach a terminal
  else if (error) io.err(`tack: ${printable(error)}\n`)
  else if (text) io.out(printable(text.endsWith('\n') ? text : `${text}\n`))
  return error ? 1 : 0
}

/** The tools the model is offered (empty when the tools mode cannot list them yet: Code Mode). */
function toolNames(ctx: { tools: { schemas(): ReadonlyArray<{ name: string }> } }): string[] {
  try {
    return ctx.tools.schemas().map((t) => t.name)
  } catch {
    return []
  }
}

/** What a headless user should see on stderr besides the answer: hook system messages (a hook's text: printed escaped). */
function userNotice(e: SessionEvent): string | undefined {
  if ((e.type as string) !== 'hook/result') return undefined
  const data = e.data as { systemMessage?: unknown }
  return typeof data.systemMessage === 'string' && data.systemMessage ? data.systemMessage : undefined
}

function describeReason(reason: TurnEndReason): string {
  switch (reason.kind) {
    case 'error':
      return `with an error${reason.code ? ` (${reason.code})` : ''}: ${reason.message}`
    case 'rejected':
      return `rejected: ${reason.reason}`
    default:
      return reason.kind
  }
}
