import type { Session } from '@tack/session'
import type { ToolAgent } from '../types.ts'

/**
 * The agent a tool call carries, for tests below the loop: the pipeline and tools reach only
 * `agent.session` (log-only events), `agent.cwd`, `agent.options` and the agent's identity;
 * steering or injecting throws, since no loop runs. The loop itself is tested in @tack/agent with
 * `createTestAgent`.
 */
export function stubAgent(
  session: Session,
  opts: { cwd?: string; options?: ToolAgent['options'] } = {},
): ToolAgent {
  const refuse = () => {
    throw new Error('tests below the loop never drive the agent')
  }
  return {
    id: `agent-of-${session.id}`,
    session,
    cwd: opts.cwd ?? session.header.cwd,
    options: opts.options ?? {},
    steer: refuse,
    inject: refuse,
  }
}
