// `` !`cmd` `` runs as a call of the `bash` tool through `ctx.tools.execute` (85-skills-and-commands.md
// K4, C2), the way Code Mode dispatches a program's calls (packages/tools/src/code-mode/dispatch.ts): the
// pipeline's pre-execute, permissions (an ask reaches the person; headless with no approver is a
// denial), hooks and post-execute see it as they see the model's call, and the sandbox confines it.
// Nothing here starts a process itself.
import type { ToolAgent, ToolRegistry } from '@tack/tools'
import { contentText } from '@tack/session'
import type { Context } from 'cordis'
import type { InlineCommandRunner } from './inline-commands.ts'

/** A runner of `` !`cmd` `` for `agent`, its calls named `<prefix>:<n>` (unique per expansion). */
export function bashInlineRunner(ctx: Context, agent: ToolAgent, prefix: string): InlineCommandRunner {
  let n = 0
  return async (command, signal) => {
    const tools = ctx.get('tools') as ToolRegistry | undefined
    if (!tools?.get('bash')) return { kind: 'failed', reason: 'the bash tool is not loaded' }
    const result = await tools.execute({
      callId: `${prefix}:${++n}`,
      name: 'bash',
      rawArguments: JSON.stringify({ command, description: `${prefix}: !\`${command}\`` }),
      agent,
      cwd: agent.cwd,
      signal,
    })
    const text = contentText(result.content)
    if (!result.isError) return { kind: 'output', text }
    return { kind: 'failed', reason: firstLine(text) || result.error?.code || 'failed' }
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? ''
}
