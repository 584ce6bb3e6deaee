// `tack state …`: the agent-state readers (status, watch, tmux, plugin-dir), the same code as the
// `agent-state` command. With no --dir or AGENT_STATE_DIR they read <tack home>/agent-state (where the
// agent-state mod writes under tack) and ~/.claude/agent-state; the readers resolve tack's home with
// tack's own resolver (`tack-home`), so a relative TACK_HOME names the same folder here as in the run
// that wrote the state (docs/decisions/0215-one-tack-home-resolver.md).
import type { CommandIO } from '../io.ts'

export async function stateCommand(argv: string[], io: CommandIO): Promise<number> {
  if (argv[0] === 'enable' || argv[0] === 'disable') {
    // tack's own: turning the mod on for every session (the readers are agent-state's)
    const { stateSwitch } = await import('./state-enable.ts')
    return stateSwitch(argv[0], argv.slice(1), io)
  }
  const { main } = await import('agent-state')
  return main(argv, {
    env: io.env,
    stdout: { write: (text: string) => io.out(text), isTTY: process.stdout.isTTY === true },
    stderr: { write: (text: string) => io.err(text) },
  })
}
