// `tack state …`: the agent-state readers (status, watch, tmux, plugin-dir), the same code as the
// `agent-state` command. With no --dir or AGENT_STATE_DIR they read <tack home>/agent-state (where the
// agent-state mod writes under tack) and ~/.claude/agent-state. The readers take only an absolute
// TACK_HOME (70-agent-state.md R4); tack hands them its home as it resolved it, so a relative TACK_HOME
// names the same folder here as in the run that wrote the state (docs/decisions/0015-tack-home.md).
import { resolveTackHome } from '@tack/kernel/home'
import type { CommandIO } from '../io.ts'

export async function stateCommand(argv: string[], io: CommandIO): Promise<number> {
  const { main } = await import('agent-state')
  return main(argv, {
    env: { ...io.env, TACK_HOME: resolveTackHome(io.env) },
    stdout: { write: (text: string) => io.out(text), isTTY: process.stdout.isTTY === true },
    stderr: { write: (text: string) => io.err(text) },
  })
}
