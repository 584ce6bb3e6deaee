// Step item 9 (AL-7) with issue 12 item 3: the tool calls of one assistant message. Consecutive calls
// to tools that change nothing (`read`, `network`: see `docs/decisions/0063-parallel-tool-calls.md`)
// run side by side, at most `maxParallelTools` at once; any other call is a barrier that runs alone
// after everything before it has finished. Whatever runs at once, the log keeps the model's order:
// each `tool/call` is appended (and flushed) when its call starts, calls start in the model's order,
// and each `tool/result` waits for the results before it.
import type { AssistantBlock, HookContext, Session } from '@tack/session'
import { type ToolDefinition, toolAccess, type ToolExecutionResult } from '@tack/tools'
import type { Context } from 'cordis'
import type { Agent } from './types.ts'

export type ToolCallBlock = Extract<AssistantBlock, { type: 'tool-call' }>

/** What running one message's calls needs from its step. */
export interface CallsRuntime {
  readonly ctx: Context
  readonly agent: Agent
  readonly session: Session
  readonly turn: number
  readonly step: number
  readonly signal: AbortSignal
  /** Calls that may run at once; 1 runs every call alone. */
  readonly maxParallelTools: number
  /** The durability point before a call's body runs (a failure here fails the step closed). */
  flush(): Promise<void>
}

/** Accesses whose calls may overlap: they change nothing in the workspace or outside it. */
const SIDE_BY_SIDE = new Set(['read', 'network'])

/** True when calls to this tool may run beside other such calls (an unknown tool may not). */
export function runsSideBySide(def: Pick<ToolDefinition, 'access'> | undefined): boolean {
  return def !== undefined && SIDE_BY_SIDE.has(toolAccess(def))
}

/**
 * Runs `calls` and appends their `tool/call`/`tool/result` events in the model's order. Every call
 * that started is answered in `answered` (the caller closes the rest); returns the results'
 * `additionalContext` items in the model's order. Stops starting calls once the signal fires; a
 * failed durability point stops it too, and is rethrown once the calls already running are answered.
 */
export async function runToolCalls(
  rt: CallsRuntime,
  calls: readonly ToolCallBlock[],
  answered: Set<string>,
): Promise<HookContext[]> {
  const contexts: HookContext[] = []
  for (const group of groupsOf(rt, calls)) {
    if (rt.signal.aborted) break
    await runGroup(rt, group, answered, contexts)
  }
  return contexts
}

/** Maximal runs of side-by-side calls; every other call is a group of its own. */
function groupsOf(rt: CallsRuntime, calls: readonly ToolCallBlock[]): ToolCallBlock[][] {
  const groups: ToolCallBlock[][] = []
  let open: ToolCallBlock[] | undefined
  for (const call of calls) {
    if (rt.maxParallelTools > 1 && runsSideBySide(rt.ctx.tools.get(call.name, rt.agent))) {
      if (!open) groups.push((open = []))
      open.push(call)
    } else {
      open = undefined
      groups.push([call])
    }
  }
  return groups
}

async function runGroup(
  rt: CallsRuntime,
  group: readonly ToolCallBlock[],
  answered: Set<string>,
  contexts: HookContext[],
): Promise<void> {
  const results: Array<ToolExecutionResult | undefined> = new Array(group.length)
  const running = new Map<number, Promise<void>>()
  let started = 0
  let recorded = 0
  let failure: { error: unknown } | undefined

  // Appends the results that are ready and whose predecessors are all recorded.
  const recordReady = () => {
    while (recorded < started && results[recorded]) {
      const call = group[recorded]
      const result = results[recorded] as ToolExecutionResult
      answered.add(call.callId)
      rt.session.append('tool/result', {
        callId: call.callId,
        name: call.name,
        content: result.content,
        isError: result.isError,
        ...(result.error ? { error: result.error } : {}),
        ...(result.meta !== undefined ? { meta: result.meta as never } : {}),
      })
      contexts.push(...(result.additionalContext ?? []))
      recorded++
    }
  }

  while (recorded < group.length) {
    // Fill the free slots in the model's order: append their calls, one durability point, then run.
    const launching: number[] = []
    while (
      !failure &&
      !rt.signal.aborted &&
      started + launching.length < group.length &&
      running.size + launching.length < rt.maxParallelTools
    ) {
      const at = started + launching.length
      const call = group[at]
      rt.session.append('tool/call', {
        turn: rt.turn,
        step: rt.step,
        callId: call.callId,
        name: call.name,
        arguments: call.arguments,
      })
      launching.push(at)
    }
    if (launching.length > 0) {
      started += launching.length
      try {
        await rt.flush()
      } catch (error) {
        // The calls are logged but not durable: they do not run, and the step closes them.
        failure = { error }
        started -= launching.length
        launching.length = 0
      }
      for (const at of launching) running.set(at, execute(rt, group[at], at, results, running))
    }
    if (running.size === 0) break
    await Promise.race(running.values())
    recordReady()
  }
  recordReady()
  if (failure) throw failure.error
}

function execute(
  rt: CallsRuntime,
  call: ToolCallBlock,
  at: number,
  results: Array<ToolExecutionResult | undefined>,
  running: Map<number, Promise<void>>,
): Promise<void> {
  // `ctx.tools.execute` never rejects (TL-3); should it, the call still gets a result, so a
  // group never waits forever on a slot.
  return rt.ctx.tools
    .execute({
      callId: call.callId,
      name: call.name,
      rawArguments: call.arguments,
      agent: rt.agent,
      cwd: rt.agent.cwd,
      signal: rt.signal,
    })
    .catch(
      (error: unknown): ToolExecutionResult => ({
        callId: call.callId,
        name: call.name,
        content: [{ type: 'text', text: `The tool call failed inside tack: ${String(error)}` }],
        isError: true,
        error: { name: 'ToolError', code: 'INTERNAL_ERROR', message: String(error) },
      }),
    )
    .then((result) => {
      results[at] = result
      running.delete(at)
    })
}
