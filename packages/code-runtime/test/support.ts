// Shared helpers: a real kernel (tool registry in a Code Mode, the QuickJS runtime, a real Session),
// and a way to run a program through the real run_code tool and pipeline.
import { tmpdir } from 'node:os'
import { Context, type ConfigInput } from '@tack/kernel'
import type { Session, SessionEventMap } from '@tack/session'
import { memorySession } from '@tack/session/testing'
import type { ToolExecutionResult, ToolsConfig } from '@tack/tools'
import { ToolsPlugin } from '@tack/tools'
import { echoTool, slowTool, stubAgent, throwingTool } from '@tack/tools/testing'
import { CodeRuntimePlugin, type CodeRuntimeConfig } from '../src/index.ts'

export interface Kernel {
  readonly ctx: Context
  readonly session: Session
}

export async function kernel(
  opts: {
    tools?: ConfigInput<typeof ToolsConfig>
    runtime?: ConfigInput<typeof CodeRuntimeConfig> | false
    setup?: (ctx: Context) => void
  } = {},
): Promise<Kernel> {
  const ctx = new Context()
  await ctx.plugin(ToolsPlugin, { mode: 'code', ...opts.tools })
  if (opts.runtime !== false) await ctx.plugin(CodeRuntimePlugin, opts.runtime ?? {})
  for (const tool of [echoTool, slowTool, throwingTool]) ctx.tools.register(tool)
  opts.setup?.(ctx)
  const session = memorySession(tmpdir())
  return { ctx, session }
}

let calls = 0

/** Runs `code` as a model's run_code call would, through `ctx.tools.execute`. */
export async function runCode(
  k: Kernel,
  code: string,
  opts: { signal?: AbortSignal; callId?: string } = {},
): Promise<ToolExecutionResult> {
  const callId = opts.callId ?? `call_${++calls}`
  k.session.append('tool/call', {
    turn: 1,
    step: 1,
    callId,
    name: 'run_code',
    arguments: JSON.stringify({ code }),
  })
  const result = await k.ctx.tools.execute({
    callId,
    name: 'run_code',
    rawArguments: JSON.stringify({ code }),
    agent: stubAgent(k.session),
    cwd: tmpdir(),
    signal: opts.signal ?? new AbortController().signal,
  })
  return result
}

export const textOf = (result: ToolExecutionResult): string => result.content.map((b) => b.text).join('\n')

export type Dispatch = SessionEventMap['tool/code-dispatch']

export const dispatches = (k: Kernel): Dispatch[] =>
  k.session
    .events()
    .filter((e) => e.type === 'tool/code-dispatch')
    .map((e) => e.data as Dispatch)
