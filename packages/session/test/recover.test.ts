import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { openTurnAt, recoverLog, Session, type SessionEvent } from '../src/index.ts'
import { checkLogStructure } from '../src/testing/index.ts'
import {
  assistantCalls,
  fixedClock,
  header,
  newSession,
  result,
  startStep,
  startTurn,
  text,
  user,
} from './helpers.ts'
import { cutLog, writeLog } from './log-fixtures.ts'

const recovered = (events: readonly SessionEvent[]) => [...events, ...recoverLog(events, fixedClock)]

describe('crash recovery', () => {
  test('SL-25 a log cut mid-stream gains step/end and turn/end {interrupted}', () => {
    const s = newSession()
    startTurn(s)
    s.append('user/message', { content: text('hi'), source: user })
    startStep(s)
    s.append('assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', text: 'Hel' } })
    const tail = recoverLog(s.events(), fixedClock)
    expect(tail.map((e) => [e.seq, e.type, e.data])).toEqual([
      [4, 'step/end', { turn: 1, step: 1 }],
      [5, 'turn/end', { turn: 1, reason: { kind: 'interrupted' } }],
    ])
    expect(tail[0].time).toBe('2025-05-06T07:08:09.010Z')
    expect(Object.isFrozen(tail[0].data)).toBe(true)
  })

  test('SL-25 a log cut after two calls and one result gains an INTERRUPTED result for the other, in call order', () => {
    const s = newSession()
    startTurn(s)
    s.append('user/message', { content: text('go'), source: user })
    startStep(s)
    assistantCalls(s, [
      ['c1', 'read'],
      ['c2', 'bash'],
      ['c3', 'grep'],
    ])
    s.append('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}' })
    result(s, 'c1')
    s.append('tool/call', { turn: 1, step: 1, callId: 'c2', name: 'bash', arguments: '{}' })
    const all = recovered(s.events())
    const tail = all.slice(s.length)
    expect(tail.map((e) => e.type)).toEqual(['tool/result', 'tool/result', 'step/end', 'turn/end'])
    expect(tail.slice(0, 2).map((e) => (e as SessionEvent<'tool/result'>).data.callId)).toEqual(['c2', 'c3'])
    expect(tail[0].data).toMatchObject({ name: 'bash', isError: true, error: { code: 'INTERRUPTED' } })
    expect(tail[0].op).toEqual({ kind: 'append' })
    checkLogStructure(all)
    const after = new Session({ header: header(), events: all })
    expect(after.inProgressToolCalls).toBe(0)
    expect(after.deriveMessages().map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool'])
    expect(recoverLog(all, fixedClock)).toEqual([])
  })

  test('SL-25 a log cut between steps gains only turn/end', () => {
    const s = newSession()
    startTurn(s)
    startStep(s)
    s.append('assistant/message', { turn: 1, step: 1, content: text('done'), finishReason: 'stop' })
    s.append('step/end', { turn: 1, step: 1 })
    expect(recoverLog(s.events(), fixedClock).map((e) => e.type)).toEqual(['turn/end'])
  })

  test('SL-25 a closed log gains nothing', () => {
    const events = writeLog([{ steps: [{ chunks: 1, calls: 1, context: false }], between: 'none' }])
    expect(recoverLog(events, fixedClock)).toEqual([])
    expect(recoverLog([], fixedClock)).toEqual([])
  })

  test('SL-25 property: any cut of a well-formed log, once recovered, passes the structure checker, balanced and closed', () => {
    fc.assert(
      fc.property(cutLog, ({ events, cut }) => {
        const all = recovered(events.slice(0, cut))
        checkLogStructure(all)
        const s = new Session({ header: header(), events: all })
        expect(s.inProgressToolCalls).toBe(0)
        expect(openTurnAt(all, all.length)).toBe(false)
        expect(recoverLog(all, fixedClock)).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  test('SL-22 openTurnAt tells cuts inside a turn from cuts between turns', () => {
    const events = writeLog([{ steps: [{ chunks: 0, calls: 0, context: false }], between: 'context' }])
    const turnEnd = events.findIndex((e) => e.type === 'turn/end')
    expect(openTurnAt(events, 0)).toBe(false)
    expect(openTurnAt(events, 1)).toBe(true)
    expect(openTurnAt(events, turnEnd)).toBe(true)
    expect(openTurnAt(events, turnEnd + 1)).toBe(false)
    expect(openTurnAt(events, events.length)).toBe(false)
  })
})
