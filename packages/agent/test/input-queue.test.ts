// The agent's held input in one queue (issue 8.3): prompts, steering, injections and forced
// continuations share one append path and keep their arrival order within what each reader takes.
import { describe, expect, test } from 'vitest'
import { InputQueue } from '../src/admission.ts'
import type { TurnOutcome } from '../src/types.ts'
import { plugin, user } from './helpers.ts'

/** A queue holding a prompt (its outcome lands in `settled`), a steer and an injection, texts tagged `tag`. */
function queueOfEachKind(tag: string) {
  const q = new InputQueue()
  const settled: TurnOutcome[] = []
  q.hold({ kind: 'prompt', input: user(`p${tag}`), settle: (o) => settled.push(o) })
  q.hold({ kind: 'steer', input: user(`s${tag}`) })
  q.hold({ kind: 'inject', input: plugin('ctx', `i${tag}`) })
  return { q, settled }
}

describe('InputQueue', () => {
  test('AL-2 AL-3 prompts form the next batch; steering, injections and continuations are drained in arrival order', () => {
    const { q, settled } = queueOfEachKind('1')
    q.hold({ kind: 'prompt', input: user('p2'), settle: () => {} })
    q.hold({ kind: 'continue', reason: 'go on' })
    expect(q.hasPrompts()).toBe(true)
    expect(q.hasSteering()).toBe(true)

    expect(q.takeDrained().map((i) => i.kind)).toEqual(['steer', 'inject', 'continue'])
    expect(q.hasSteering()).toBe(false)
    expect(q.takePrompts().map((p) => p.input.content)).toEqual(['p1', 'p2'])
    expect(q.hasPrompts()).toBe(false)
    expect(q.takeDrained()).toEqual([])
    expect(settled).toEqual([])
  })

  test('AL-23 cancel settles the held prompts and drops steering and continuations; injections stay', () => {
    const { q, settled } = queueOfEachKind('')
    q.hold({ kind: 'continue', reason: 'again' })
    q.settlePrompts({ reason: { kind: 'aborted' } })
    q.dropSteering()
    expect(settled).toEqual([{ reason: { kind: 'aborted' } }])
    expect(q.hasPrompts()).toBe(false)
    expect(q.takeDrained()).toEqual([{ kind: 'inject', input: plugin('ctx', 'i') }])
  })
})
