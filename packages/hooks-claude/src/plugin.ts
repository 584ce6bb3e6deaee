// The `hooks-claude` plugin: discovers the user's Claude Code hooks, provides `ctx.hooksClaude`, and
// listens on the seams of 40-hooks.md B3. It needs the agents registry (for detached-work tracking) and
// works with or without the tool registry.
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Agent } from '@tack/agent'
import { dataDirOf, definePlugin, resolveTackHome } from '@tack/kernel'
import { ClaudeBridge } from './bridge.ts'
import { HooksClaudeConfig } from './config.ts'
import { SettingsWatch } from './config-watch.ts'
import { onPostCompact, onPreCompact } from './points/compaction.ts'
import { onPostModelSwitch, onPreModelSwitch } from './points/model-switch.ts'
import { onInstructionsLoaded, onNotification } from './points/observe.ts'
import { onPermissionRequest } from './points/permission-request.ts'
import { onPromptExpansion } from './points/prompt-expansion.ts'
import { onPromptSubmit } from './points/prompt-submit.ts'
import { onSessionEnd, onStopFailure } from './points/session-end.ts'
import { onPostToolBatch } from './points/tool-batch.ts'
import { onSessionStart } from './points/session-start.ts'
import { onStop } from './points/stop.ts'
import { onSubagentEnd, onSubagentStart } from './points/subagent.ts'
import { onPostToolUse, onPreToolUse } from './points/tool-use.ts'
import { HooksClaudeService } from './service.ts'
import { HookRegistry } from './settings/registry.ts'
// The seams of these packages are declared there; their types are all the bridge takes from them.
import type {} from '@tack/commands'
import type {} from '@tack/compaction'

export const HooksClaudePlugin = definePlugin({
  name: 'hooks-claude',
  Config: HooksClaudeConfig,
  apply(ctx, config) {
    const home = config.home ?? homedir()
    const dataDir = dataDirOf(config.dataDir, process.env, { userHome: home })
    // Trust is tack's, not the bridge's data: one store in tack's home, wherever dataDir points.
    const tackHome = config.tackHome ?? resolveTackHome(process.env, { userHome: home })
    const log = ctx.logger('hooks-claude')
    const registry = new HookRegistry({
      discover: config.discover,
      sources: config.sources,
      home,
      tackHome,
      assumeTrusted: config.assumeTrusted,
      warn: (m) => log.warn('%s', m),
      info: (m) => log.info('%s', m),
    })
    const bridge = new ClaudeBridge(
      ctx,
      {
        ...(config.projectDir ? { projectDir: config.projectDir } : {}),
        stderrSummaryMaxChars: config.stderrSummaryMaxChars,
        maxConsecutiveStopBlocks: config.maxConsecutiveStopBlocks,
        awaitSessionStart: config.awaitSessionStart,
        transcriptDir: config.transcriptDir ?? join(dataDir, 'claude-transcripts'),
        dataDir,
        home,
      },
      registry,
    )
    ctx.provide('hooksClaude', new HooksClaudeService(registry))

    const settingsWatch = new SettingsWatch(bridge, config.configWatchDebounceMs)
    ctx.on('agent/session-start', (agent, source) => {
      settingsWatch.attach(agent)
      onSessionStart(bridge, agent, source)
    })
    ctx.on('agent/prompt-submit', (agent, prompt, next) => onPromptSubmit(bridge, agent, prompt, next), {
      phase: 'hooks',
    })
    ctx.on('ui/prompt-expansion', (agent, expansion, next) =>
      onPromptExpansion(bridge, agent, expansion, next),
    )
    ctx.on('agent/turn-continuation', (agent, info, next) => onStop(bridge, agent, info, next), {
      phase: 'hooks',
    })
    ctx.on('subagent/start', (parent, child, info) => onSubagentStart(bridge, parent, child, info))
    ctx.on('subagent/end', (parent, child, info) => onSubagentEnd(bridge, parent, child, info))
    ctx.on('tools/pre-execute', (exec, next) => onPreToolUse(bridge, exec, next), { phase: 'hooks' })
    ctx.on('tools/post-execute', (exec, result, next) => onPostToolUse(bridge, exec, result, next))
    ctx.on('tools/permission-request', (exec, ask, next) => onPermissionRequest(bridge, exec, ask, next))
    ctx.on('agent/tool-batch', (agent, info, next) => onPostToolBatch(bridge, agent, info, next))
    ctx.on('agent/turn-failed', (agent, failure) => onStopFailure(bridge, agent, failure))
    ctx.on('agent/disposed', (agent, cause) => onSessionEnd(bridge, agent, cause))
    ctx.on('compaction/pre', (agent, info, next) => onPreCompact(bridge, agent, info, next))
    ctx.on('compaction/post', (agent, info, next) => onPostCompact(bridge, agent, info, next))
    ctx.on('agent/model-switch', (agent, change, next) => onPreModelSwitch(bridge, agent, change, next))
    ctx.on('agent/model-switched', (agent, change) => onPostModelSwitch(bridge, agent, change))
    ctx.on('agent/instructions-loaded', (agent, files, reason) =>
      onInstructionsLoaded(bridge, agent, files, reason),
    )
    ctx.on('ui/notification', (agent, note) => onNotification(bridge, agent, note))
    // The agent starts disposing (status first, before its turn is wound down): cut its hook runs, so
    // disposal never waits out a hook's timeout. Disposal itself awaits the tracked chains (AL-24).
    ctx.on('agent/status', (agent: Agent, status) => {
      if (status !== 'disposed') return
      settingsWatch.detach(agent)
      bridge.agentDisposing(agent)
    })
    ctx.effect(() => () => bridge.drainAll(), 'hooks-claude: drain hook runs')
    ctx.effect(() => () => settingsWatch.close(), 'hooks-claude: stop watching settings files')
  },
})
