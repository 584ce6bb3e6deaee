// The mod host plugin (65-mod-host.md): loads the configured mods at boot, then maps tack's seams onto
// mod events for every session. It loads after the hook bridges and the user's plugins
// (docs/architecture.md), and registers its `tools/call`, `tools/pre-execute` and
// `agent/prompt-submit` listeners first, so a mod's hook wraps everything tack does there.
import { readFileSync } from 'node:fs'
import type { Agent } from '@tack/agent'
import { dataDirOf, definePlugin, resolveTackHome } from '@tack/kernel'
import type { Session } from '@tack/session'
import { ModsConfig } from './config.ts'
import { installLifecycle, type TurnFacts } from './events/lifecycle.ts'
import { installPromptSubmit } from './events/prompt.ts'
import { installUiEvents } from './events/ui.ts'
import type { Mapping } from './events/shared.ts'
import { installTurnStep } from './events/step.ts'
import { installToolCall, installToolCheck } from './events/tools.ts'
import { ModHost } from './host.ts'
import './log-events.ts'

declare module 'cordis' {
  interface Context {
    mods: ModHost
  }
}

function hostVersion(): string {
  try {
    return String(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version)
  } catch {
    return '0.0.0'
  }
}

/**
 * The environment mods read (`$.env.get`): the process's, read live, except that TACK_HOME is tack's home as
 * tack resolved it. A mod has no working folder to resolve a relative TACK_HOME against (agent-state takes
 * only an absolute one, 70-agent-state.md R4), so a relative value would name another folder there.
 */
function modEnvironment(): NodeJS.ProcessEnv {
  return new Proxy(process.env, {
    get: (env, name) => (name === 'TACK_HOME' ? resolveTackHome(env) : Reflect.get(env, name)),
  })
}

export const ModsPlugin = definePlugin({
  name: 'mods',
  Config: ModsConfig,
  inject: ['agents', 'tools'],
  async apply(ctx, config) {
    const dataDir = dataDirOf(config.dataDir)
    const log = ctx.logger('mods')
    const warned = new Set<string>()
    const host = new ModHost({
      config,
      env: modEnvironment(),
      dataDir,
      version: hostVersion(),
      log: (mod, line) => log.info(`${mod}: ${line}`),
      warn: (line) => log.warn(line),
      fault(agent, fault) {
        try {
          agent.session.append('mod/fault', { ...fault })
        } catch {
          // the session is closed (a late fault after dispose): the warning below still reaches a person
        }
        const key = `${fault.mod}\0${fault.event}\0${fault.kind}`
        if (warned.has(key)) return
        warned.add(key)
        log.warn(`mod "${fault.mod}": ${fault.event} hook skipped (${fault.kind}): ${fault.message}`)
      },
    })
    await host.load(config.mods)
    const agents = new WeakMap<Session, Agent>()
    ctx.on('agent/created', (agent: Agent) => {
      agents.set(agent.session, agent)
    })
    const mapping: Mapping = { ctx, host, agentOf: (s) => agents.get(s) }
    const turns = new WeakMap<Agent, TurnFacts>()
    installLifecycle(mapping, turns)
    installPromptSubmit(mapping)
    installToolCall(mapping)
    installToolCheck(mapping)
    installTurnStep(mapping, turns)
    installUiEvents(mapping)
    ctx.provide('mods', host)
  },
})
