// `tack dice …`: the agent-dice CLI with host `tack` and tack's data folder ($TACK_HOME/dice).
import type { CommandIO } from '../io.ts'
import { tackPaths } from '../paths.ts'

export async function diceCommand(argv: string[], io: CommandIO): Promise<number> {
  const { runCli } = await import('agent-dice/cli')
  const paths = tackPaths(io.env)
  const env = { ...io.env, AGENT_DICE_HOST: 'tack', AGENT_DICE_BASE: io.env.AGENT_DICE_BASE ?? paths.dice }
  return runCli(argv, { env, cwd: io.cwd, stdout: (s) => io.out(s), stderr: (s) => io.err(s) })
}
