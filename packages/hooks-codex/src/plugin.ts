// The Codex hooks bridge plugin (40-hooks.md Part C): discovers hooks.json files once at load, checks
// each hook against the trust store, installs the points on tack's seams and provides
// `ctx.hooksCodex` (`list`, `trust`, `warnings`, `skip`) for `tack hooks list|trust` and plugins.
// Disposing it aborts and drains every detached hook run (A8).
import { join, resolve } from 'node:path'
import type { Agent } from '@tack/agent'
import { createDetachedRuns, defaultHookBackend } from '@tack/hook-protocol'
import { definePlugin } from '@tack/kernel'
import { type Bridge, modelOf } from './bridge.ts'
import { HooksCodexConfig } from './config.ts'
import { loadCodexRegistry } from './load-registry.ts'
import { installCompaction } from './points/compaction.ts'
import { installInterrupt } from './points/interrupt.ts'
import { installPermissionRequest } from './points/permission-request.ts'
import { installPromptSubmit } from './points/prompt-submit.ts'
import { installSessionStart } from './points/session-start.ts'
import { installStop } from './points/stop.ts'
import { installSubagentStart } from './points/subagent.ts'
import { createStartChains } from './start-chains.ts'
import { installToolUse } from './points/tool-use.ts'
import { HooksCodexService } from './service.ts'
import { createRolloutFiles } from './transcripts.ts'

export const HooksCodexPlugin = definePlugin({
  name: 'hooks-codex',
  Config: HooksCodexConfig,
  inject: ['agents', 'tools'],
  async apply(ctx, config) {
    const log = ctx.logger('hooks-codex')
    const { registry, dataDir } = await loadCodexRegistry(config)
    for (const warning of registry.warnings()) log.warn(warning)

    const lifetimes = new WeakMap<Agent, AbortController>()
    const lifetimeOf = (agent: Agent) => {
      let controller = lifetimes.get(agent)
      if (!controller) lifetimes.set(agent, (controller = new AbortController()))
      return controller
    }
    ctx.on('agent/disposed', (agent: Agent) => lifetimeOf(agent).abort())

    const detached = createDetachedRuns()
    ctx.effect(() => () => detached.drain(), 'hooks-codex: drain detached hook runs')

    const warn = (message: string) => log.warn(message)
    const rollouts = createRolloutFiles(
      config.transcriptDir ? resolve(config.transcriptDir) : join(dataDir, 'codex-transcripts'),
      () => ctx.get('tools'),
      warn,
    )
    const bridge: Bridge = {
      ctx,
      config,
      registry,
      runner: {
        backend: defaultHookBackend,
        stderrSummaryMaxChars: config.stderrSummaryMaxChars,
        warn,
        beforeSpawn: (agent) => rollouts.sync(agent),
      },
      detached,
      lifetime: (agent) => lifetimeOf(agent).signal,
      payloadContext: (agent, turn) => ({
        agent,
        model: modelOf(ctx, agent),
        transcriptPath: rollouts.path(agent),
        ...(turn !== undefined ? { turn } : {}),
      }),
      warn,
    }
    const starts = createStartChains(bridge)
    installSessionStart(bridge, starts)
    const subagents = installSubagentStart(bridge, starts)
    installPromptSubmit(bridge, starts)
    installToolUse(bridge)
    installPermissionRequest(bridge)
    installCompaction(bridge)
    installStop(bridge, subagents)
    installInterrupt(bridge)
    ctx.provide('hooksCodex', new HooksCodexService(registry, warn))
  },
})
