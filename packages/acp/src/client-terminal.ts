// Commands in the client's terminal (50-acp.md requirement 11): when the client advertises `terminal`
// and config `clientTerminal` allows, a command call runs as `bash -c <command>` in a client terminal
// in the session's cwd. The call's card shows the live terminal once it exists; the model gets the
// terminal's output; the terminal is always released. On the call's timeout or abort the command is
// killed first. It runs as the process runner of the command tool's body (`@tack/tool-bash`
// runner.ts), so every seam after the body (the hook bridges' PostToolUse) sees it as it sees a local
// call. Hook commands never come here: only a tool body's commands do.
import type { AgentContext, TerminalHandle, WaitForTerminalExitResponse } from '@agentclientprotocol/sdk'
import { type BashArgs, type CommandRun, shellCommandLine } from '@tack/tool-bash'
import type { ToolCallContext } from '@tack/tools'

export interface TerminalLimits {
  readonly timeoutMs: number
  readonly outputByteLimit: number
}

type Ended =
  | { kind: 'exited'; status: WaitForTerminalExitResponse }
  | { kind: 'timeout' }
  | { kind: 'aborted' }

export async function runInClientTerminal(
  client: AgentContext,
  sessionId: string,
  args: BashArgs,
  call: ToolCallContext,
  limits: TerminalLimits,
  onCreated: (terminalId: string) => void,
): Promise<CommandRun> {
  const timeoutMs = args.timeout_ms ?? limits.timeoutMs
  const terminal: TerminalHandle = await client.createTerminal({
    sessionId,
    ...shellCommandLine(args),
    cwd: call.cwd,
    outputByteLimit: limits.outputByteLimit,
  })
  try {
    onCreated(terminal.id)
    const ended = await waitForEnd(terminal, timeoutMs, call.signal)
    if (ended.kind !== 'exited') await terminal.kill()
    const output = await terminal.currentOutput()
    return resultOf(ended, output.output, output.truncated, timeoutMs)
  } finally {
    await terminal.release().catch(() => {})
  }
}

async function waitForEnd(terminal: TerminalHandle, timeoutMs: number, signal: AbortSignal): Promise<Ended> {
  let timer: NodeJS.Timeout | undefined
  let onAbort = () => {}
  try {
    return await Promise.race<Ended>([
      terminal.waitForExit().then((status) => ({ kind: 'exited', status })),
      new Promise<Ended>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs)
      }),
      new Promise<Ended>((resolve) => {
        onAbort = () => resolve({ kind: 'aborted' })
        if (signal.aborted) onAbort()
        else signal.addEventListener('abort', onAbort, { once: true })
      }),
    ])
  } finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort)
  }
}

/**
 * What the model reads (the output with tack's notes) and the call's meta, shaped as the local bash
 * tool's: `output` is the command's own output, which the hook bridges send as `tool_response.stdout`.
 */
function resultOf(ended: Ended, output: string, truncated: boolean, timeoutMs: number): CommandRun {
  const lines: string[] = []
  if (truncated) lines.push('[output truncated by the client terminal: showing its end]')
  if (output !== '') lines.push(output.endsWith('\n') ? output.slice(0, -1) : output)
  const status = ended.kind === 'exited' ? ended.status : { exitCode: null, signal: null }
  const meta = {
    exitCode: status.exitCode ?? null,
    ...(status.signal ? { signal: status.signal } : {}),
    timedOut: ended.kind === 'timeout',
    truncated,
    output,
  }
  const failed = (code: string, note: string): CommandRun => {
    lines.push(note)
    return { text: text(lines), meta, failure: { code, message: note.slice(1, -1) } }
  }
  switch (ended.kind) {
    case 'timeout':
      return failed('TIMEOUT', `[the command timed out after ${timeoutMs} ms and was killed]`)
    case 'aborted':
      return failed('ABORTED', '[the command was cancelled and killed]')
    case 'exited': {
      const { exitCode, signal } = ended.status
      if (exitCode === 0) return { text: text(lines), meta }
      return failed(
        'COMMAND_FAILED',
        signal ? `[killed by signal ${signal}]` : `[exit code ${exitCode ?? 'unknown'}]`,
      )
    }
    default:
      return ended satisfies never
  }
}

const text = (lines: readonly string[]) => lines.join('\n') || '(no output)'
