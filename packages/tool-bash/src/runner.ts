// Where a bash call runs when a host has a terminal of its own: an ACP client's (50-acp.md requirement
// 11). A host installs a resolver that answers for its own agents; the bash tool's body asks it first.
// Being inside the body, a call run there passes every seam a local call does (tools/post-execute, so
// the hook bridges' PostToolUse), as the fs tools do with a swapped file backend (tool-fs backend.ts).
import { agentOverrides, type ToolAgent, type ToolCallContext } from '@tack/tools'
import type { BashArgs, BashMeta } from './present.ts'

/** How a command run elsewhere ended: what the model reads, the call's meta, and a failure if any. */
export interface CommandRun {
  readonly text: string
  readonly meta: BashMeta
  /** Set when the call failed: its error code (`TIMEOUT`, `ABORTED`, `COMMAND_FAILED`) and one line. */
  readonly failure?: { readonly code: string; readonly message: string }
}

export type CommandRunner = (args: BashArgs, call: ToolCallContext) => Promise<CommandRun>
export type CommandRunnerResolver = (agent: ToolAgent) => CommandRunner | undefined

const runners = agentOverrides<CommandRunner>()

/** Installs `resolve`; the returned function removes it (call it when the installing plugin stops). */
export const useCommandRunners = (resolve: CommandRunnerResolver): (() => void) => runners.use(resolve)

/** The runner swapped in for this call's agent, or `undefined` for a local `bash -c`. */
export const commandRunnerOf = (agent: ToolAgent | undefined): CommandRunner | undefined => runners.of(agent)

/** The program and arguments a runner starts for a call: `bash -c <command>`, as the local body does. */
export function shellCommandLine(args: BashArgs): { readonly command: string; readonly args: string[] } {
  return { command: 'bash', args: ['-c', args.command] }
}
