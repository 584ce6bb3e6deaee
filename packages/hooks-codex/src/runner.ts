// Runs one point's matching hooks (40-hooks.md B4, C2): one at a time in config order, all of them
// even after a block (Codex starts every match), each bracketed by `hook/invoked` and `hook/result`;
// only the seam's abort stops the rest. Each output is read as Codex reads it for the point
// (`interpretCodexOutput`) before it is logged and folded.
import type { Agent } from '@tack/agent'
import {
  appendHookInvoked,
  appendHookResult,
  type HookBackend,
  type HookInvocation,
  type HookOutput,
  type MergedHookOutcome,
  matchesMatcher,
  mergeHookOutputs,
  runHook,
} from '@tack/hook-protocol'
import { type CodexPoint, usesMatcher } from './events.ts'
import type { CodexHookEntry } from './hooks-file.ts'
import { interpretCodexOutput } from './interpret.ts'
import type { CodexPayload } from './payload.ts'

/** A hook that may run: well-formed, runnable here, and trusted (or trust is off). */
export interface RunnableHook {
  readonly entry: CodexHookEntry
  /** Its trust key, also its stable `handlerId` in the log. */
  readonly key: string
}

export interface RunnerEnv {
  readonly backend: HookBackend
  readonly stderrSummaryMaxChars: number
  /** Reports a field that was logged but had no effect (the bridge's logger). */
  readonly warn: (message: string) => void
  /** Runs right before each hook is spawned: brings the agent's `transcript_path` file up to date. */
  readonly beforeSpawn?: (agent: Agent) => void
}

export interface PointInput {
  readonly point: CodexPoint
  /** Whose log gets `hook/*`, whose workspace the hook runs in, whose transcript is synced first. */
  readonly agent: Agent
  /** Another agent whose transcript the payload names (a subagent point's child), synced too. */
  readonly alsoSync?: Agent
  /** Matcher subjects (tool name then aliases, or the session-start source). */
  readonly subjects: readonly string[]
  readonly payload: CodexPayload
  readonly turn?: number
  readonly toolCallId?: string
  readonly signal?: AbortSignal
}

export interface PointRun {
  /** How many hooks ran. */
  readonly ran: number
  /** Each run's output as Codex reads it, in config order. */
  readonly outputs: readonly HookOutput[]
  readonly merged: MergedHookOutcome
  /**
   * Context for the model, in config order: each output's `additionalContext`, or on SessionStart,
   * SubagentStart and UserPromptSubmit its plain (non-JSON) stdout.
   */
  readonly contexts: readonly string[]
}

/** The hooks of `point` whose matcher selects one of `subjects`, in config order. */
export function selectHooks(
  hooks: readonly RunnableHook[],
  point: CodexPoint,
  subjects: readonly string[],
): RunnableHook[] {
  return hooks.filter(
    (h) =>
      h.entry.event === point && (!usesMatcher(point) || matchesMatcher('codex', h.entry.matcher, subjects)),
  )
}

const plainStdoutIsContext = (point: CodexPoint) =>
  point === 'SessionStart' || point === 'SubagentStart' || point === 'UserPromptSubmit'

function contextOf(point: CodexPoint, output: HookOutput): string | undefined {
  if (output.failed) return undefined
  if (output.additionalContext) return output.additionalContext
  if (
    plainStdoutIsContext(point) &&
    !output.json &&
    output.exitCode === 0 &&
    output.decision === undefined &&
    output.stdout !== ''
  ) {
    return output.stdout
  }
  return undefined
}

/** Appends to the agent's log unless it can no longer take events (disposed meanwhile). */
function safely(append: () => void): void {
  try {
    append()
  } catch {
    // A disposed agent's log refuses appends; the run still happened and its process is gone.
  }
}

export async function runPoint(
  env: RunnerEnv,
  hooks: readonly RunnableHook[],
  input: PointInput,
): Promise<PointRun> {
  const selected = selectHooks(hooks, input.point, input.subjects)
  const outputs: HookOutput[] = []
  const contexts: string[] = []
  for (const hook of selected) {
    if (input.signal?.aborted) break
    const invocation: HookInvocation = {
      ...(input.turn !== undefined ? { turn: input.turn } : {}),
      point: input.point,
      dialect: 'codex',
      handlerId: hook.key,
      ...(hook.entry.matcher !== undefined && usesMatcher(input.point)
        ? { matcher: hook.entry.matcher }
        : {}),
      ...(input.toolCallId !== undefined ? { toolCallId: input.toolCallId } : {}),
    }
    safely(() => appendHookInvoked(input.agent.session, invocation))
    env.beforeSpawn?.(input.agent)
    if (input.alsoSync) env.beforeSpawn?.(input.alsoSync)
    const raw = await runHook(
      env.backend,
      { command: hook.entry.handler.command, timeout: hook.entry.handler.timeoutSec },
      {
        dialect: 'codex',
        event: input.point,
        payload: input.payload,
        cwd: input.agent.cwd,
        ...(input.signal ? { signal: input.signal } : {}),
      },
    )
    const { output, warnings } = interpretCodexOutput(input.point, raw)
    for (const w of warnings) env.warn(`${input.point} hook ${hook.key}: ${w}`)
    // Codex shows a failed hook's status (protocols.md §B.6); an abort is tack's own doing, not the hook's.
    if (output.failed && !output.aborted) {
      const detail = output.stderr ? `: ${output.stderr.split('\n')[0]}` : ''
      env.warn(
        `${input.point} hook ${hook.key} failed (${output.failure ?? 'error'})${detail}; it is ignored`,
      )
    }
    safely(() =>
      appendHookResult(input.agent.session, {
        invocation,
        output,
        stderrSummaryMaxChars: env.stderrSummaryMaxChars,
      }),
    )
    outputs.push(output)
    const context = contextOf(input.point, output)
    if (context !== undefined) contexts.push(context)
  }
  return { ran: outputs.length, outputs, merged: mergeHookOutputs(outputs), contexts }
}
