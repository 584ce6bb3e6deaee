import type { Agent, AgentOptions } from '@tack/agent'
import type { Session } from '@tack/session'

/**
 * The agent a tool call carries, for tests below the loop. The pipeline and tools reach only
 * `agent.session` (log-only events), `agent.cwd`, `agent.options` and the agent's identity, so a
 * session-carrying object stands in; driving it (send, steer, …) throws. The loop itself is tested in
 * @tack/agent with `createTestAgent`.
 */
export function stubAgent(session: Session, opts: { cwd?: string; options?: AgentOptions } = {}): Agent {
  const refuse = () => {
    throw new Error('tests below the loop never drive the agent')
  }
  return {
    id: `agent-of-${session.id}`,
    session,
    cwd: opts.cwd ?? session.header.cwd,
    options: opts.options ?? {},
    status: 'running',
    model: 'scripted/test',
    turnSignal: undefined,
    send: refuse,
    steer: refuse,
    inject: refuse,
    cancel: refuse,
    whenIdle: refuse,
  }
}
