// How the bash tool looks (TL-10): a command card, and after the result its text and exit code. Pure and
// synchronous; the exit code comes from `meta`, which survives replay.
import type { ToolPresentation } from '@tack/tools'
import { blockText } from '@tack/session'
import type { SandboxDenial } from './sandbox-denial.ts'

export interface BashArgs {
  readonly command: string
  readonly timeout_ms?: number
  readonly description?: string
  /** `require_escalated` asks to run this command outside the sandbox (0315-leaving-the-sandbox.md). */
  readonly sandbox_permissions?: 'use_default' | 'require_escalated'
  readonly justification?: string
}

/** The tool-private `meta` of a bash result (TL-9, TL-17). */
export interface BashMeta {
  /** The command ran outside the sandbox the mode would have put it in, with an approval. */
  readonly escalated?: true
  /** The sandbox stopped the command (sandbox-denial.ts): what, and where. */
  readonly sandboxDenial?: SandboxDenial
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

/**
 * The bash tool's presentation (presentation.ts in @tack/tools): it executes, its key argument is the
 * command, a call shows the command line and a result the terminal's output and exit code.
 */
export const bashPresentation: ToolPresentation<BashArgs, keyof BashArgs> = {
  kind: 'execute',
  key: ['command'],
  title: (args) => args.description?.trim() || 'bash',
  call: (args) => [{ kind: 'command', command: args.command }],
  result: (_args, result) => {
    const output = result.content.map(blockText).join('\n')
    const exitCode = exitCodeOf(result.meta)
    return [{ kind: 'terminal', output, ...(exitCode !== undefined && { exitCode }) }]
  },
}

function exitCodeOf(meta: unknown): number | null | undefined {
  if (meta === null || typeof meta !== 'object' || !('exitCode' in meta)) return undefined
  return typeof meta.exitCode === 'number' || meta.exitCode === null ? meta.exitCode : undefined
}
