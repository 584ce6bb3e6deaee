// `agent-dice/tack`: the tack plugin, and the `tack dice …` entry for tack's CLI.
import { runCli, type CliIo } from '../cli/run.ts'
import { resolveBase } from '../host/env.ts'

export { apply, Config, isAgentDiceHook, name, tackDepth, type AgentDiceConfig } from './plugin.ts'

/**
 * `tack dice <argv…>`: the agent-dice CLI against tack's data folder (`$TACK_HOME/dice`, TACK_HOME
 * defaulting to `~/.tack`; `AGENT_DICE_BASE`/`CC_DICE_BASE` still win). Returns the exit code.
 */
export function runTackDice(argv: readonly string[], io: Omit<CliIo, 'host'>): Promise<number> {
  const cwd = io.cwd ?? process.cwd()
  const base = (() => {
    try {
      return resolveBase('tack', { env: io.env, cwd, home: io.home })
    } catch {
      return undefined
    }
  })()
  return runCli(argv, {
    ...io,
    cwd,
    env: { ...io.env, AGENT_DICE_HOST: 'tack' },
    host: { kind: 'tack', base },
    program: 'tack dice',
  })
}

export { runCli, type CliIo } from '../cli/run.ts'
