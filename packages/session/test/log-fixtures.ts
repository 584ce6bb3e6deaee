// Builders for whole, well-formed logs (the shapes the loop writes), used by structure and
// recovery tests, and a fast-check arbitrary over them.
import fc from 'fast-check'
import type { Session, SessionEvent } from '../src/index.ts'
import { newSession, plugin, text, user } from './helpers.ts'

export interface StepPlan {
  chunks: number
  calls: number
  context: boolean
}
export interface TurnPlan {
  steps: StepPlan[]
  between: 'none' | 'context' | 'plugin-event' | 'compact'
}

let callCounter = 0

export function writeTurn(s: Session, turn: number, plan: TurnPlan): void {
  s.append('turn/start', { turn, trigger: { kind: 'message' } })
  s.append('user/message', { content: text(`prompt ${turn}`), source: user })
  plan.steps.forEach((st, i) => {
    const step = i + 1
    s.append('step/start', { turn, step })
    s.recordRequestHeader({ config: { model: 'm' }, system: `system for step ${step % 2}` })
    for (let c = 0; c < st.chunks; c++)
      s.append('assistant/chunk', { turn, step, chunk: { type: 'text-delta', text: `t${c}` } })
    const calls = Array.from({ length: st.calls }, () => ({ callId: `call_${++callCounter}`, name: 'read' }))
    s.append('assistant/message', {
      turn,
      step,
      content: [
        { type: 'text', text: 'ok' },
        ...calls.map((c) => ({ type: 'tool-call' as const, ...c, arguments: '{}' })),
      ],
      finishReason: calls.length ? 'tool-calls' : 'stop',
    })
    for (const c of calls) {
      s.append('tool/call', { turn, step, ...c, arguments: '{}' })
      s.append('tool/result', { ...c, content: text('done'), isError: false })
    }
    if (st.context) s.append('context/message', { content: text('post-execute'), source: plugin('hooks') })
    s.append('step/end', { turn, step, finishReason: calls.length ? 'tool-calls' : 'stop' })
  })
  s.append('turn/end', { turn, reason: { kind: 'completed' } })
  switch (plan.between) {
    case 'context':
      s.append('context/message', { content: text('idle context'), source: plugin('state') })
      break
    case 'plugin-event':
      s.append('todo/write' as 'context/message', { items: [] } as never)
      break
    case 'compact': {
      // Like compaction: replace the head of the surface up to the last balanced cut before the tail.
      const nodes = s.surface()
      let last = nodes.length - 2
      while (last >= 0 && !s.toolPairingBalancedAfter(nodes[last].seq)) last--
      if (last >= 0) {
        s.append(
          'context/message',
          { content: text('summary'), source: plugin('compaction') },
          {
            kind: 'replace',
            fromSeq: nodes[0].seq,
            toSeq: nodes[last].seq,
          },
        )
      }
      break
    }
    case 'none':
      break
  }
}

export function writeLog(turns: TurnPlan[]): readonly SessionEvent[] {
  const s = newSession()
  for (const [i, plan] of turns.entries()) writeTurn(s, i + 1, plan)
  return s.events()
}

const stepPlan = fc.record({ chunks: fc.nat(2), calls: fc.nat(3), context: fc.boolean() })
export const turnPlan = fc.record({
  steps: fc.array(stepPlan, { minLength: 1, maxLength: 3 }),
  between: fc.constantFrom<TurnPlan['between']>('none', 'context', 'plugin-event', 'compact'),
})
/** A well-formed log and a cut inside it. */
export const cutLog = fc
  .array(turnPlan, { minLength: 1, maxLength: 4 })
  .map(writeLog)
  .chain((events) =>
    fc.record({ events: fc.constant(events), cut: fc.integer({ min: 0, max: events.length }) }),
  )
