// `` !`cmd` `` runs through the bash tool and the tools pipeline (85-skills-and-commands.md K4): the
// permission mode, the rules and the hooks judge it as they judge the model's own bash call, and what
// ran is in the log (the pipeline's approval events under the sub-call's id, and one
// `skill/inline-command` event per command, between the skill call's `tool/call` and `tool/result`).
import { contentText } from '@tack/session'
import type { ToolCallContext, ToolRegistry } from '@tack/tools'
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

export function bashRunner(tools: Pick<ToolRegistry, 'execute'>, call: ToolCallContext): InlineCommandRunner {
  let n = 0
  return async (command, signal) => {
    const subCallId = `${call.callId}:inline:${++n}`
    const result = await tools.execute({
      callId: subCallId,
      name: 'bash',
      rawArguments: JSON.stringify({ command }),
      ...(call.agent ? { agent: call.agent } : {}),
      cwd: call.cwd,
      signal,
    })
    call.agent?.session.append('skill/inline-command', {
      parentCallId: call.callId,
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
      return { kind: 'failed', reason: text || result.error?.message || code }
    return { kind: 'output', text }
  }
}
