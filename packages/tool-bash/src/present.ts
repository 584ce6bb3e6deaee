// Render intents of the bash tool (TL-10): a `terminal` card with the command, and after the result
// its text and exit code. Pure and synchronous; the exit code comes from `meta`, which survives replay.
import type { RenderIntent, ToolResultView } from '@tack/tools'

export interface BashArgs {
  readonly command: string
  readonly timeout_ms?: number
  readonly description?: string
}

/** The tool-private `meta` of a bash result (TL-9, TL-17). */
export interface BashMeta {
  /** Null when the command was killed by a signal or never started. */
  readonly exitCode: number | null
  readonly signal?: string
  readonly timedOut: boolean
  readonly truncated: boolean
  readonly spillPath?: string
  /**
   * The command's own output (stdout and stderr merged, the kept tail when truncated), without the notes
   * the model's text adds: hook bridges send it as Claude Code's and Codex's `tool_response.stdout`.
   */
  readonly output?: string
}

export function presentBashCall(args: BashArgs): RenderIntent {
  return { kind: 'terminal', title: titleOf(args), command: args.command }
}

export function presentBashResult(args: BashArgs, result: ToolResultView): RenderIntent {
  const output = result.content.map((block) => block.text).join('\n')
  const exitCode = exitCodeOf(result.meta)
  return {
    kind: 'terminal',
    title: titleOf(args),
    command: args.command,
    output,
    ...(exitCode !== undefined && { exitCode }),
  }
}

function titleOf(args: BashArgs): string {
  const description = args.description?.trim()
  return description ? description : 'bash'
}

function exitCodeOf(meta: unknown): number | undefined {
  if (meta === null || typeof meta !== 'object' || !('exitCode' in meta)) return undefined
  return typeof meta.exitCode === 'number' ? meta.exitCode : undefined
}
