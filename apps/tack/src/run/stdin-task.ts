// The task of `tack run` and what stdin adds to it (80-cli §2, issue 10 item 5), as `claude -p` does:
//   tack run "task"            stdin a terminal or /dev/null: the task alone
//   cat log | tack run "task"  piped stdin is context: the prompt holds the task, then stdin's text
//   cat task.md | tack run     no task and piped stdin: stdin is the task
//   tack run -                 stdin is the task (also from a terminal, until end of input)
// Only a pipe, a file or a socket counts as piped: a terminal is never waited on.
import type { Content } from '@tack/session'
import { UsageError } from '../args.ts'
import type { CommandIO } from '../io.ts'

export interface RunInput {
  /** The task as the user wrote it. */
  readonly task: string
  /** The prompt's content: the task, then stdin's text as a second block when it was piped. */
  readonly content: Content
}

/** stdin's text as a context block: fenced so the model can tell the data from the request. */
export function stdinBlock(text: string): string {
  return `<stdin>\n${text.endsWith('\n') ? text : `${text}\n`}</stdin>`
}

export async function readRunInput(args: readonly string[], io: CommandIO): Promise<RunInput> {
  let task = args.join(' ')
  let piped: string | undefined
  if (task === '-') task = await io.readStdin()
  else if (io.stdinIsPiped?.()) {
    const text = await io.readStdin()
    if (!task.trim()) task = text
    else if (text.trim()) piped = text
  }
  if (!task.trim())
    throw new UsageError(
      'tack run needs a task: tack run "fix the failing test" (or pipe it in: cat task.md | tack run)',
    )
  if (piped === undefined) return { task, content: task }
  if (piped.includes('\u0000'))
    throw new UsageError(
      'stdin holds binary data (a NUL byte); tack run passes piped stdin to the model as text',
    )
  return {
    task,
    content: [
      { type: 'text', text: task },
      { type: 'text', text: stdinBlock(piped) },
    ],
  }
}
