// The bash tool in the client's terminal (50-acp.md requirement 11): when the client advertises
// `terminal` and config `clientTerminal` allows, a bash call runs as `bash -c <command>` in a client
// terminal in the session's cwd. The call's card shows the live terminal from `in_progress` on; the
// model gets the terminal's output; the terminal is always released. On the call's timeout or abort
// the command is killed first. Hook commands never come here: only the `bash` tool's body does.
import type { AgentContext, TerminalHandle, WaitForTerminalExitResponse } from '@agentclientprotocol/sdk'
import type { ToolExecution, ToolExecutionResult } from '@tack/tools'

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
  exec: ToolExecution,
  limits: TerminalLimits,
  onCreated: (terminalId: string) => void,
): Promise<ToolExecutionResult> {
  const args = exec.arguments as { command: string; timeout_ms?: number }
  const timeoutMs = args.timeout_ms ?? limits.timeoutMs
  const terminal: TerminalHandle = await client.createTerminal({
    sessionId,
    command: 'bash',
    args: ['-c', args.command],
    cwd: exec.cwd,
    outputByteLimit: limits.outputByteLimit,
  })
  try {
    onCreated(terminal.id)
    const ended = await waitForEnd(terminal, timeoutMs, exec.signal)
    if (ended.kind !== 'exited') await terminal.kill()
    const output = await terminal.currentOutput()
    return resultOf(exec, ended, output.output, output.truncated, timeoutMs)
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

function resultOf(
  exec: ToolExecution,
  ended: Ended,
  output: string,
  truncated: boolean,
  timeoutMs: number,
): ToolExecutionResult {
  const lines: string[] = []
  if (truncated) lines.push('[output truncated by the client terminal: showing its end]')
  if (output !== '') lines.push(output.endsWith('\n') ? output.slice(0, -1) : output)
  const base = { callId: exec.callId, name: exec.name }
  switch (ended.kind) {
    case 'timeout':
      lines.push(`[the command timed out after ${timeoutMs} ms and was killed]`)
      return { ...base, content: text(lines), isError: true, error: { name: 'ToolError', code: 'TIMEOUT' } }
    case 'aborted':
      lines.push('[the command was cancelled and killed]')
      return { ...base, content: text(lines), isError: true, error: { name: 'AbortError', code: 'ABORTED' } }
    case 'exited': {
      const { exitCode, signal } = ended.status
      if (exitCode === 0) return { ...base, content: text(lines), isError: false }
      lines.push(signal ? `[killed by signal ${signal}]` : `[exit code ${exitCode ?? 'unknown'}]`)
      return {
        ...base,
        content: text(lines),
        isError: true,
        error: { name: 'ToolError', code: 'COMMAND_FAILED' },
      }
    }
    default:
      return ended satisfies never
  }
}

const text = (lines: readonly string[]) => [
  { type: 'text' as const, text: lines.join('\n') || '(no output)' },
]
