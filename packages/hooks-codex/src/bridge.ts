// What every point of the bridge shares: config, the hook registry, the runner's environment, the
// detached-run tracker, per-agent lifetimes and how an agent's model is named in payloads.
import { type Agent, AgentPlugin } from '@tack/agent'
import type { DetachedRuns } from '@tack/hook-protocol'
import type { Context } from 'cordis'
import type { HooksCodexConfig } from './config.ts'
import type { PayloadContext } from './payload.ts'
import type { CodexHookRegistry } from './registry.ts'
import type { RunnerEnv } from './runner.ts'

/** The source of every context item the bridge adds (40-hooks.md C2). */
export const HOOKS_CODEX_SOURCE = Object.freeze({ kind: 'plugin', name: 'hooks-codex' } as const)

export interface Bridge {
  readonly ctx: Context
  readonly config: HooksCodexConfig
  readonly registry: CodexHookRegistry
  readonly runner: RunnerEnv
  /** Emit-shaped runs (SessionStart); drained when the plugin is disposed. */
  readonly detached: DetachedRuns
  /** Aborted when `agent` is disposed: stops its hook runs on seams that carry no signal. */
  lifetime(agent: Agent): AbortSignal
  /** What every payload of `agent` shares; `turn` on turn-scoped points. */
  payloadContext(agent: Agent, turn?: number): PayloadContext
  warn(message: string): void
}

/**
 * The agent's model: the one its last request was sent with, else its own option, else the agent
 * plugin's default. (@tack/agent resolves the default privately; see the README's limitations.)
 */
export function modelOf(ctx: Context, agent: Agent): string {
  const sent = agent.session.requestHeader()?.config.model
  if (sent) return sent
  const own = agent.options.config?.model
  if (own) return own
  try {
    for (const fiber of ctx.registry.get(AgentPlugin)?.fibers ?? []) {
      const model = (fiber.config as { model?: unknown } | undefined)?.model
      if (typeof model === 'string' && model) return model
    }
  } catch {
    // No agent plugin loaded through this registry.
  }
  return ''
}
