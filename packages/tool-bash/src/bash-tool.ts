// The `bash` tool (TL-17): one fresh `bash -c` per call in the agent's cwd, in its own process group,
// stdin closed, with the scrubbed environment, a clamped timeout, the tail of the merged output and
// a spill file for the rest — in the OS sandbox in workspace-write and read-only modes (issue 9.3).
// Anything but exit 0 is an error result carrying the output and `meta`.
import { unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { defineTool, ToolFailure, type ToolCallContext } from '@tack/tools'
import { bashHost } from './bash-host.ts'
import { runProcess } from '@tack/process'
import type { BashToolConfig } from './config.ts'
import { type ConfinementOptions, createConfinement } from './confinement.ts'
import { scrubEnvironment } from './environment.ts'
import { type BashArgs, type BashMeta, bashPresentation } from './present.ts'
import { outcomeOf, resultText } from './result-text.ts'
import { denialNote, sandboxDenial } from './sandbox-denial.ts'
import { type CommandRunner, commandRunnerOf } from './runner.ts'
import { fileSafe } from './scratch.ts'

/** Spill files of calls made outside any session (no agent on the call). */
export const NO_SESSION_FOLDER = 'no-session'

const DESCRIPTION = [
  'Runs a shell command with bash in the working directory and returns its combined stdout and stderr.',
  'Each call is a fresh `bash -c` (no state carries over between calls: use `cd dir && ...` in one command).',
  'stdin is closed, so interactive programs get end of file; colours and pagers are off.',
  'The command and everything it starts are terminated on timeout, and background processes still running',
  'when the command ends are terminated too. Long output is cut to its end; the full output is saved to a',
  'file whose path the result gives. A non-zero exit is reported as an error with the output.',
  'In the sandbox some paths are read-only (.git) or hidden and the network may be off; the result says when the',
  'sandbox stopped a command. Only then, set sandbox_permissions to "require_escalated" with a justification to',
  'ask the user to run that one command outside it.',
].join(' ')

/** The value of `sandbox_permissions` that asks to leave the sandbox (Codex's name for it). */
export const REQUIRE_ESCALATED = 'require_escalated'

export function createBashTool(config: BashToolConfig, options: ConfinementOptions = {}) {
  const confine = createConfinement(config, options)
  return defineTool({
    name: 'bash',
    // What a command touches cannot be known before it runs, so bash declares no paths: the OS
    // sandbox, not the permission plugin, keeps it inside the workspace (0012-protected-files.md).
    access: 'execute',
    host: bashHost,
    description: DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: 'The bash command to run.' },
        timeout_ms: {
          type: 'integer',
          minimum: 1,
          description: `Timeout in milliseconds (default ${config.timeoutMs}, at most ${config.maxTimeoutMs}).`,
        },
        description: {
          type: 'string',
          description: 'A short description of what the command does, shown to the user.',
        },
        sandbox_permissions: {
          type: 'string',
          enum: ['use_default', REQUIRE_ESCALATED],
          description: 'require_escalated: ask the user to run this command outside the sandbox.',
        },
        justification: {
          type: 'string',
          description: 'Why this command must run outside the sandbox; shown to the user.',
        },
      },
      required: ['command'],
    },
    // Asked of the permission plugin before the body runs (docs/decisions/0315-leaving-the-sandbox.md).
    escalation: (args) =>
      args.sandbox_permissions === REQUIRE_ESCALATED
        ? { justification: args.justification ?? '' }
        : undefined,
    execute: (args, call) => runBash(config, confine, args, call, options.secrets),
    present: bashPresentation,
  })
}

async function runBash(
  config: BashToolConfig,
  confine: ReturnType<typeof createConfinement>,
  args: BashArgs,
  call: ToolCallContext,
  secrets: ConfinementOptions['secrets'],
) {
  // A host's own terminal (an ACP client's) runs the command instead, its own limits applying.
  const runner = commandRunnerOf(call.agent)
  if (runner) return runElsewhere(runner, args, call)
  const requested = args.timeout_ms ?? config.timeoutMs
  const timeoutMs = Math.min(requested, config.maxTimeoutMs)
  const sessionId = call.agent?.session.id ?? NO_SESSION_FOLDER
  const confinement = await confine(call, sessionId, args.sandbox_permissions === REQUIRE_ESCALATED)
  if (confinement.kind === 'unavailable') {
    const content = `[the command was not run: the sandbox is required (sandbox: on) but unavailable: ${confinement.reason}]`
    throw new ToolFailure('SANDBOX_UNAVAILABLE', 'the sandbox is unavailable', { content })
  }
  if (confinement.kind === 'refused') {
    const content = `[the command was not run outside the sandbox: ${confinement.reason}]`
    throw new ToolFailure('ESCALATION_REFUSED', confinement.reason, { content })
  }
  const spillTarget = join(config.scratchRoot, fileSafe(sessionId), `bash-${fileSafe(call.callId)}.log`)
  const run = await runProcess({
    command: args.command,
    cwd: call.cwd,
    // The declared secrets are read now, not at load: a provider loaded after bash is scrubbed too.
    env: scrubEnvironment(config.env ?? process.env, config.envAllow, [
      ...config.envDeny,
      ...(secrets?.variables() ?? []),
    ]),
    ...(confinement.kind === 'sandboxed' && { wrapper: confinement.wrapper }),
    timeoutMs,
    graceMs: config.graceMs,
    maxOutputBytes: config.maxOutputBytes,
    merge: true,
    spillPath: spillTarget,
    signal: call.signal,
  })
  // The spill only matters when the result could not hold everything; otherwise it is a duplicate.
  const spillPath = run.truncated ? run.spillPath : undefined
  if (run.spillPath && !spillPath) await unlink(run.spillPath).catch(() => {})

  const outcome = outcomeOf(run)
  const denial =
    outcome === 'COMMAND_FAILED' && confinement.kind === 'sandboxed'
      ? sandboxDenial(run.stdout, confinement.policy, call.cwd)
      : undefined
  const text = resultText({
    run,
    timeoutMs,
    ...(requested > timeoutMs && { requestedTimeoutMs: requested }),
    ...(spillPath && { spillPath }),
    ...(denial &&
      confinement.kind === 'sandboxed' && {
        sandboxNote: denialNote(denial, confinement.mode, args.command),
      }),
  })
  const meta: BashMeta = {
    ...(confinement.kind === 'unconfined' && confinement.escalated && { escalated: true }),
    ...(denial && { sandboxDenial: denial }),
    exitCode: run.exitCode,
    ...(run.signal !== null && { signal: run.signal }),
    timedOut: run.timedOut,
    truncated: run.truncated,
    ...(spillPath && { spillPath }),
    output: run.stdout,
  }
  if (outcome === 'ok') return { content: text, meta }
  throw new ToolFailure(outcome, firstLineOf(outcome, run.exitCode), { content: text, meta })
}

async function runElsewhere(runner: CommandRunner, args: BashArgs, call: ToolCallContext) {
  const run = await runner(args, call)
  if (run.failure)
    throw new ToolFailure(run.failure.code, run.failure.message, { content: run.text, meta: run.meta })
  return { content: run.text, meta: run.meta }
}

function firstLineOf(outcome: Exclude<ReturnType<typeof outcomeOf>, 'ok'>, exitCode: number | null): string {
  switch (outcome) {
    case 'COMMAND_FAILED':
      return exitCode === null ? 'the command was killed by a signal' : `the command exited with ${exitCode}`
    case 'TIMEOUT':
      return 'the command timed out'
    case 'ABORTED':
      return 'the command was aborted'
    case 'SPAWN_FAILED':
      return 'the command could not be started'
  }
}
