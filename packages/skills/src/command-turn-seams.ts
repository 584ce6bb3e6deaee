// The seams a command's own turn rides on (command-turns.ts): its prompt is claimed on
// `agent/prompt-submit` and recorded as `command/expanded` right before its `user/message`, its requests
// take the command's model on `agent/request` (prepended, so it is outermost and wins over the session's
// choice, an ACP client's included, for that turn only), and the agent going idle ends it.
import type { Agent } from '@tack/agent'
import type { Content } from '@tack/session'
import type { Context } from 'cordis'
import type { CommandTurns } from './command-turns.ts'
import { grantCommandTools } from './turn-grant.ts'
import type { KnowHowKind, KnowHowScope } from './types.ts'

declare module '@tack/session' {
  interface SessionEventMap {
    /**
     * The `user/message` that follows is the expansion of slash command `/name` (a prompt command or a
     * skill, from `file`, 85-skills-and-commands.md C2), so a transcript can show `/name` rather than the
     * body; `model` is the model its turn runs on, `allowedTools` what its front matter pre-approves for
     * that turn. The arguments are in the message itself.
     */
    'command/expanded': {
      name: string
      kind: KnowHowKind
      scope: KnowHowScope
      file: string
      model?: string
      allowedTools?: string[]
    }
  }
}

export function listenForCommandTurns(ctx: Context, turns: CommandTurns): void {
  ctx.on('agent/prompt-submit', async (agent, prompt, next) => {
    const turn = turns.claim(agent, textOf(prompt.content))
    const decision = await next()
    if (!turn) return decision
    if (decision.action !== 'allow') {
      turns.end(agent)
      return decision
    }
    const { item } = turn
    agent.session.append('command/expanded', {
      name: item.name,
      kind: item.kind,
      scope: item.scope,
      file: item.file,
      ...(turn.model ? { model: turn.model } : {}),
      ...(turn.allowedTools.length > 0 ? { allowedTools: [...turn.allowedTools] } : {}),
    })
    if (turn.allowedTools.length > 0) grantCommandTools(ctx, agent, turn.allowedTools, item.file, item.name)
    return decision
  })
  ctx.on(
    'agent/request',
    async (agent, info, _config, next) => {
      const given = await next()
      const model = turns.modelFor(agent, info.turn)
      return model && model !== given.model ? { ...given, model } : given
    },
    { prepend: true },
  )
  ctx.on('agent/status', (agent: Agent, status) => {
    if (status !== 'running') turns.end(agent)
  })
}

function textOf(content: Content): string {
  if (typeof content === 'string') return content
  const first = content[0]
  return first?.type === 'text' ? first.text : ''
}
