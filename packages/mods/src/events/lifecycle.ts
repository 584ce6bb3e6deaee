// Session and turn events (65-mod-host.md requirement 10): `session.start` on `agent/session-start`,
// `session.end` on `agent/disposed` (detached work dispose awaits, one wall-clock bound that also lets the
// mods' `$` work in flight settle), `turn.start` before a turn's first request (never for a rejected
// turn), `turn.complete` on `turn/end`. The turn facts (`text`, `answer`, summed `usage`) are read from
// the log as it is appended.
import type { Agent, DisposeCause, PreStepInfo } from '@tack/agent'
import type { Session, SessionEvent, Usage } from '@tack/session'
import { fireStopFailure } from './classic.ts'
import { createMeasure } from './measure.ts'
import { claudeUsage } from './step-chunks.ts'
import { echo, type Mapping, textOf } from './shared.ts'

export interface TurnFacts {
  turn: number
  step: number
  startedAt: number
  text: string
  answer: string
  usage?: Usage
  lastFinish?: string
  /** The usage of the turn's last request (its input tokens are the context in use). */
  lastUsage?: Usage
  model: string
}

const END_REASON: Readonly<Record<DisposeCause, string>> = {
  exit: 'other',
  clear: 'clear',
  resume: 'resume',
  error: 'other',
  signal: 'other',
}

const addUsage = (a: Usage | undefined, b: Usage): Usage => ({
  inputTokens: (a?.inputTokens ?? 0) + b.inputTokens,
  outputTokens: (a?.outputTokens ?? 0) + b.outputTokens,
  cachedInputTokens: (a?.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0),
})

export function turnIdOf(agent: Agent, turn: number): string {
  return `${agent.session.id}:${turn}`
}

export function installLifecycle(m: Mapping, turns: WeakMap<Agent, TurnFacts>): void {
  const { ctx, host } = m
  const measure = createMeasure(m)
  ctx.on('agent/created', (agent: Agent) => {
    host.sessionOf(agent)
  })
  ctx.on('agent/session-start', (agent: Agent) => {
    const mods = host.sessionOf(agent)
    if (!mods || agent.parent) return
    const e = { cwd: agent.cwd, surface: null, isInteractive: false }
    const run = host.fire('session.start', agent, e, echo('cwd'), mods.sessionStartSignal)
    mods.sessionStart = run.catch(() => {})
    ctx.agents.trackDetached(agent, run)
  })
  ctx.on('agent/disposed', (agent: Agent, cause: DisposeCause) => {
    const mods = host.sessionOf(agent)
    if (!mods || agent.parent) return
    // One wall-clock bound from here covers the session.end hooks and the `$` work the mods leave in
    // flight, which dispose waits for (docs/decisions/0155-mod-work-at-session-end.md).
    mods.endDeadline()
    const e = { reason: END_REASON[cause] ?? 'other', sessionId: agent.session.id }
    const run = host.fire('session.end', agent, e, echo('sessionId')).finally(() => host.endSession(agent))
    ctx.agents.trackDetached(agent, run)
  })
  ctx.on('agent/pre-step', async (agent: Agent, info: PreStepInfo) => {
    const facts = turns.get(agent)
    if (!facts || facts.turn !== info.turn) return
    facts.step = info.step
    if (info.step !== 1 || !host.sessionOf(agent)) return
    const e = { text: facts.text, turnId: turnIdOf(agent, info.turn), ...host.agentIdOf(agent) }
    await host.fire('turn.start', agent, e, echo('turnId'), info.signal)
  })
  ctx.on('session/event', (session: Session, event: SessionEvent) => {
    const agent = m.agentOf(session)
    if (!agent) return
    const facts = turns.get(agent)
    switch (event.type) {
      case 'turn/start': {
        const data = event.data as { turn: number }
        turns.set(agent, {
          turn: data.turn,
          step: 0,
          startedAt: Date.now(),
          text: '',
          answer: '',
          model: agent.model,
        })
        return
      }
      case 'user/message':
        if (facts)
          facts.text = facts.text
            ? `${facts.text}\n${textOf((event.data as { content: [] }).content)}`
            : textOf((event.data as { content: [] }).content)
        return
      case 'assistant/message': {
        if (!facts) return
        const data = event.data as {
          content: { type: string; text?: string }[]
          usage?: Usage
          finishReason: string
        }
        facts.answer = data.content.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('')
        facts.lastFinish = data.finishReason
        if (data.usage) {
          facts.usage = addUsage(facts.usage, data.usage)
          facts.lastUsage = data.usage
          const mods = host.sessionOf(agent)
          if (mods && !agent.parent) mods.lastInputTokens = data.usage.inputTokens
        }
        return
      }
      case 'turn/end': {
        const ended = (event.data as { reason: { kind: string; code?: string; message?: string } }).reason
        const reason = ended.kind
        if (!facts || reason === 'rejected' || !host.sessionOf(agent)) return
        const aborted = ['aborted', 'interrupted', 'disposed'].includes(reason)
        const e = {
          answer: facts.answer,
          durationMs: Date.now() - facts.startedAt,
          isAborted: aborted,
          turnId: turnIdOf(agent, facts.turn),
          ...host.agentIdOf(agent),
          ...(facts.usage ? { usage: claudeUsage(facts.usage, facts.model) } : {}),
          reason: reason === 'error' ? 'error' : aborted ? 'aborted' : 'answer',
          ...(facts.lastFinish === 'content-filter' ? { refusal: true } : {}),
        }
        const run = host.fire('turn.complete', agent, e, async (e2) => ({
          text: e2.answer,
          ...(e2.usage ? { usage: e2.usage } : {}),
        }))
        ctx.agents.trackDetached(agent, run)
        if (reason === 'error')
          ctx.agents.trackDetached(agent, fireStopFailure(m, agent, ended, facts.answer))
        const measured = agent.parent ? undefined : measure(agent, facts, facts.lastUsage)
        if (measured) ctx.agents.trackDetached(agent, measured)
        return
      }
    }
  })
}
