// `createTestAgent`: a real kernel (sessions on a memory store, the tool registry, the agent loop)
// with the scripted model and the SL-19/SL-20 invariants on. Only the model is fake.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type SessionEvent, type SessionEventType, sessionsPlugin } from '@tack/session'
import { ToolsPlugin } from '@tack/tools'
import { Context } from '@tack/kernel'
import { AgentPlugin } from '../plugin.ts'
import type { Agent, AgentHandle, AgentOptions } from '../types.ts'
import { installRequestInvariant, installStructureInvariant } from './invariants.ts'
import { createScriptedModel, type ScriptedModel } from './scripted-model.ts'
import type { ScriptEntry } from './script.ts'
import { installStatusInvariant } from './status-checker.ts'

/** A plugin to load, with its config. */
export type TestPlugin =
  // biome-ignore lint/suspicious/noExplicitAny: plugins of any config type may be loaded
  | { plugin: any; config?: unknown }
  // biome-ignore lint/suspicious/noExplicitAny: a bare plugin function or object
  | ((ctx: Context) => any)

export interface TestAgentOptions {
  readonly script?: readonly ScriptEntry[]
  readonly plugins?: readonly TestPlugin[]
  /** Config per kernel plugin. */
  readonly config?: {
    agent?: Record<string, unknown>
    tools?: Record<string, unknown>
    sessions?: Record<string, unknown>
  }
  readonly agentOptions?: AgentOptions
  readonly cwd?: string
  /** Called after the kernel is up and before the agent is created (register listeners here). */
  readonly setup?: (ctx: Context) => unknown
}

export interface TestAgent {
  readonly ctx: Context
  readonly model: ScriptedModel
  readonly handle: AgentHandle
  readonly agent: Agent
  readonly cwd: string
  /** The log so far. */
  events(): readonly SessionEvent[]
  /** The log's event types so far. */
  types(): SessionEventType[]
  /** Illegal agent status transitions seen so far (should stay empty). */
  readonly statusViolations: readonly string[]
  dispose(): Promise<void>
}

export const SCRIPTED_MODEL = 'scripted/test'

export async function bootKernel(
  opts: Pick<TestAgentOptions, 'config' | 'plugins' | 'setup'> = {},
): Promise<{ ctx: Context; statusViolations: readonly string[] }> {
  const ctx = new Context()
  await ctx.plugin(sessionsPlugin, opts.config?.sessions ?? {})
  await ctx.plugin(ToolsPlugin, opts.config?.tools ?? {})
  await ctx.plugin(AgentPlugin, { model: SCRIPTED_MODEL, ...(opts.config?.agent ?? {}) })
  installStructureInvariant(ctx)
  // Every request the loop sends must carry its origin, so none passes unchecked.
  installRequestInvariant(ctx, { requireOrigin: true })
  const status = installStatusInvariant(ctx)
  for (const p of opts.plugins ?? []) {
    if (typeof p === 'function') await ctx.plugin(p)
    else await ctx.plugin(p.plugin, p.config)
  }
  await opts.setup?.(ctx)
  return { ctx, statusViolations: status.violations }
}

export async function createTestAgent(opts: TestAgentOptions = {}): Promise<TestAgent> {
  const { ctx, statusViolations } = await bootKernel(opts)
  const model = createScriptedModel(opts.script ?? [])
  ctx.modelAdapters.register([SCRIPTED_MODEL], model.adapter)
  const cwd = opts.cwd ?? (await mkdtemp(join(tmpdir(), 'tack-test-')))
  const handle = await ctx.agents.create({ cwd, options: opts.agentOptions })
  const agent = handle.agent
  return {
    ctx,
    model,
    handle,
    agent,
    cwd,
    events: () => agent.session.events(),
    types: () => agent.session.events().map((e) => e.type),
    statusViolations,
    dispose: async () => {
      await handle.dispose()
      // A turn that ended on a broken invariant fails the test even if it asserted nothing else.
      const broken = agent.session
        .events()
        .filter(
          (e) =>
            e.type === 'turn/end' &&
            (e.data as { reason: { code?: string } }).reason.code === 'INVARIANT_VIOLATED',
        )
      if (broken.length > 0) throw new Error(`log invariant violated: ${JSON.stringify(broken[0].data)}`)
    },
  }
}
