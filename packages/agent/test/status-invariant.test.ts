// SL-20 legal agent status transitions (AL-5), checked by `installStructureInvariant` from
// `@tack/agent/invariants` (createTestAgent installs it): a status is not logged, so an illegal change
// is reported as a listener fault and thrown from the next append to the agent's session. The changes
// are fired through the kernel's typed `emitSafely`, as the loop fires them.
import { emitSafely } from '@tack/kernel'
import { describe, expect, test } from 'vitest'
import type { Agent, AgentStatus } from '../src/index.ts'
import { createTestAgent } from '../src/testing/index.ts'
import { InvariantError } from '../src/testing/invariants.ts'

const note = (t: string) => ({
  content: [{ type: 'text' as const, text: t }],
  source: { kind: 'user' as const },
})

async function agentWithFaults() {
  const faults: unknown[] = []
  const t = await createTestAgent({
    setup: (ctx) => {
      ctx.on('kernel/listener-fault', (fault) => {
        faults.push(fault.error)
      })
    },
  })
  const report = (agent: Agent, status: AgentStatus, previous: AgentStatus) =>
    emitSafely(t.ctx, 'agent/status', agent, status, previous)
  return { t, faults, report }
}

describe('SL-20 agent status transitions', () => {
  test('SL-20 legal changes pass; an illegal one is reported and thrown from the next append', async () => {
    const { t, faults, report } = await agentWithFaults()
    report(t.agent, 'running', 'idle')
    report(t.agent, 'idle', 'running')
    t.agent.session.append('context/message', note('fine'))
    expect(faults).toEqual([])
    report(t.agent, 'disposed', 'idle')
    report(t.agent, 'running', 'disposed')
    expect(faults).toHaveLength(1)
    expect((faults[0] as InvariantError).rule).toBe('status')
    expect(() => t.agent.session.append('context/message', note('x'))).toThrow(
      /illegal agent status change disposed → running/,
    )
    expect(t.statusViolations).toEqual([`${t.agent.id}: disposed → running`])
  })

  test('SL-20 a status report whose previous value is not the last one seen is a violation', async () => {
    const { t, faults, report } = await agentWithFaults()
    report(t.agent, 'idle', 'running') // the agent was never running
    expect(faults[0]).toBeInstanceOf(InvariantError)
    expect((faults[0] as Error).message).toMatch(/previous status running, but its last status was idle/)
    await t.dispose()
  })
})
