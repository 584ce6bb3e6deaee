// `tack dice …`: the agent-dice CLI with host `tack` on tack's data folder ($TACK_HOME/dice).
import type { CommandIO } from '../io.ts'

export async function diceCommand(argv: string[], io: CommandIO): Promise<number> {
  const { runTackDice } = await import('agent-dice/tack')
  return runTackDice(argv, { env: io.env, cwd: io.cwd, stdout: (s) => io.out(s), stderr: (s) => io.err(s) })
}
