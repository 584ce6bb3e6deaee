// `` !`cmd` `` runs as a call of the `bash` tool through `ctx.tools.execute` (85-skills-and-commands.md
// K4, C2), the way Code Mode dispatches a program's calls (packages/tools/src/code-mode/dispatch.ts): the
// permission mode, the rules and the hooks judge it as they judge the model's own bash call (an ask
// reaches the person; headless with no approver is a denial), and the sandbox confines it. Nothing here
// starts a process itself. Inside a `skill` tool call, each command is also logged as one
// `skill/inline-command` event between that call's `tool/call` and `tool/result`.
import { contentText } from '@tack/session'
import type { ToolAgent, ToolRegistry } from '@tack/tools'
import type { InlineCommandRunner } from './inline-commands.ts'

declare module '@tack/session' {
  interface SessionEventMap {
    /** One `` !`cmd` `` of a loaded skill or command, run through the bash tool as `subCallId`. */
    'skill/inline-command': {
      parentCallId: string
      subCallId: string
      command: string
      isError: boolean
      errorCode?: string
    }
  }
}

export interface InlineRunOrigin {
  readonly agent?: ToolAgent
  readonly cwd: string
  /** The sub-calls' ids are `<idPrefix>:inline:<n>`, unique per expansion. */
  readonly idPrefix: string
  /** The `skill` tool call the commands run inside, when there is one (then each is logged). */
  readonly parentCallId?: string
}

export function bashRunner(
  tools: Pick<ToolRegistry, 'execute'>,
  origin: InlineRunOrigin,
): InlineCommandRunner {
  let n = 0
  return async (command, signal) => {
    const subCallId = `${origin.idPrefix}:inline:${++n}`
    const result = await tools.execute({
      callId: subCallId,
      name: 'bash',
      rawArguments: JSON.stringify({ command }),
      ...(origin.agent ? { agent: origin.agent } : {}),
      cwd: origin.cwd,
      signal,
    })
    if (origin.parentCallId)
      origin.agent?.session.append('skill/inline-command', {
        parentCallId: origin.parentCallId,
        subCallId,
        command,
        isError: result.isError,
        ...(result.isError ? { errorCode: result.error?.code ?? 'TOOL_FAILED' } : {}),
      })
    const text = contentText(result.content)
    if (!result.isError) return { kind: 'output', text }
    const code = result.error?.code
    // A command that ran and failed still has output the body meant to show; a denied one has none.
    if (code === 'DENIED' || code === 'UNKNOWN_TOOL' || code === 'ABORTED')
      return { kind: 'failed', reason: text.trim().split('\n')[0] || result.error?.message || code }
    return { kind: 'output', text }
  }
}
