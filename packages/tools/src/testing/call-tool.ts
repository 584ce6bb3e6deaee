// One call of a registered tool through the real pipeline, as a model's call would arrive, for tests.
import type { Context } from 'cordis'
import type { ToolExecutionResult } from '../types.ts'

let calls = 0

/** Calls `name` with `args` (as JSON) in this process's cwd; `signal` aborts it. */
export function callTool(
  ctx: Context,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal = new AbortController().signal,
): Promise<ToolExecutionResult> {
  return ctx.tools.execute({
    callId: `call_${++calls}`,
    name,
    rawArguments: JSON.stringify(args),
    cwd: process.cwd(),
    signal,
  })
}
