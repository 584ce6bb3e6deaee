// The tack host (`agent-dice/tack`, R22): a cordis plugin. At a top-level turn's end it rolls on
// `agent/turn-continuation` (after the rest of the chain has answered) and turns a hit into a
// `continue` decision whose reason the loop logs as a steering message before one more step. Depth is
// the number of `user/message` events in the session log (steering, tool results and its own nudges
// are not prompts). `startup` and `clear` session starts clear slots; `resume` and `compact` don't.
import type { Agent, ContinuationDecision, ContinuationInfo, SessionStartSource } from '@tack/agent'
import { Schema } from '@tack/kernel'
import type { Context } from 'cordis'
import { runCheck, sessionStart } from '../core/engine.ts'
import { renderTriggers } from '../core/render.ts'
import { type HostEnvironment, resolveBase } from '../host/env.ts'
import { isOwnedCommand } from '../install/targets.ts'
import { FileDiceStore } from '../store/file-store.ts'

export const name = 'agent-dice'

export const Config = Schema.object({
  base: Schema.absolutePath({
    description:
      'Data folder; default AGENT_DICE_BASE, else CC_DICE_BASE, else $TACK_HOME/dice (~/.tack/dice).',
  }).optional(),
  enabled: Schema.boolean({ default: true, description: 'Roll at the end of every top-level turn.' }),
})

export type AgentDiceConfig = ReturnType<typeof Config.parse>

/** A hook bridge's skip API (`@tack/hooks-claude` B11, `@tack/hooks-codex`), when loaded. */
interface ClaudeBridge {
  skip?(predicate: (handler: unknown) => boolean, reason: string): unknown
}

/** Depth in tack: the prompts in the session log. */
export function tackDepth(agent: Pick<Agent, 'session'>): number {
  let count = 0
  for (const event of agent.session.events()) if (event.type === 'user/message') count++
  return count
}

/** Whether a discovered hook handler is one of agent-dice's own Claude hooks. */
export function isAgentDiceHook(handler: unknown): boolean {
  const command = (handler as { command?: unknown } | null)?.command
  return isOwnedCommand(command, {})
}

export function apply(ctx: Context, config: AgentDiceConfig, environment?: () => HostEnvironment): void {
  if (!config.enabled) return
  const log = ctx.logger('agent-dice')
  const env = environment ?? (() => ({ env: process.env, cwd: process.cwd() }))
  const store = () => new FileDiceStore(resolveBase('tack', env(), config.base))

  // No double rolls: agent-dice's own Claude and Codex hooks, if a bridge discovered them, are skipped.
  for (const name of ['hooksClaude', 'hooksCodex']) {
    const bridge = ctx.get(name) as ClaudeBridge | undefined
    if (bridge && typeof bridge.skip === 'function') {
      const undo = bridge.skip(isAgentDiceHook, 'agent-dice runs natively in tack (agent-dice/tack)')
      if (typeof undo === 'function') ctx.effect(() => undo as () => void, `agent-dice: ${name} skip`)
    }
  }

  ctx.on('agent/session-start', (agent: Agent, source: SessionStartSource) => {
    if (agent.parent || (source !== 'startup' && source !== 'clear')) return
    sessionStart(store(), { sessionId: agent.session.id }).catch((error: unknown) => {
      log.warn('session start failed: %s', error instanceof Error ? error.message : String(error))
    })
  })

  ctx.on(
    'agent/turn-continuation',
    async (
      agent: Agent,
      info: ContinuationInfo,
      next: () => Promise<ContinuationDecision>,
    ): Promise<ContinuationDecision> => {
      const downstream = await next()
      // Subagents never roll; a forced continuation's stop (AL-16, Claude's stop_hook_active) neither.
      if (agent.parent || downstream.action === 'continue' || info.continuations > 0) return downstream
      try {
        const { results, slots } = await runCheck(store(), {
          sessionId: agent.session.id,
          getCurrentDepth: async () => tackDepth(agent),
        })
        const reason = renderTriggers(results, slots)
        if (reason) return { action: 'continue', reason }
      } catch (error) {
        log.warn(
          'check failed, the turn ends as decided downstream: %s',
          error instanceof Error ? error.message : String(error),
        )
      }
      return downstream
    },
  )
}
