import { describe, expect, test } from 'vitest'
import {
  assistantCalls,
  codeOf,
  newSession,
  plugin,
  result,
  startStep,
  startTurn,
  text,
  user,
} from './helpers.ts'

describe('tool pairing', () => {
  test('SL-12 balance table for user, assistant(2 calls), result, result, user', () => {
    const s = newSession()
    startTurn(s)
    const u1 = s.append('user/message', { content: text('go'), source: user })
    startStep(s)
    const a = assistantCalls(s, [
      ['c1', 'read'],
      ['c2', 'read'],
    ])
    expect(s.inProgressToolCalls).toBe(2)
    const r1 = result(s, 'c1')
    const r2 = result(s, 'c2')
    const u2 = s.append('steering/message', { content: text('more'), source: user })
    const nodes = [u1, a, r1, r2, u2]
    const table = nodes.map((n) => [s.toolPairingBalancedBefore(n.seq), s.toolPairingBalancedAfter(n.seq)])
    expect(table).toEqual([
      [true, true],
      [true, false],
      [false, false],
      [false, true],
      [true, true],
    ])
    for (let i = 0; i < nodes.length - 1; i++) {
      expect(s.toolPairingBalancedAfter(nodes[i].seq)).toBe(s.toolPairingBalancedBefore(nodes[i + 1].seq))
    }
    expect(s.inProgressToolCalls).toBe(0)
  })

  test('SL-12 an unknown or log-only seq throws NOT_ON_SURFACE', () => {
    const s = newSession()
    startTurn(s)
    s.append('user/message', { content: text('go'), source: user })
    expect(codeOf(() => s.toolPairingBalancedBefore(0))).toBe('NOT_ON_SURFACE') // turn/start is log-only
    expect(codeOf(() => s.toolPairingBalancedAfter(99))).toBe('NOT_ON_SURFACE')
  })

  test('SL-12 a replace rebuilds the balance and index; replaced seqs leave the surface', () => {
    const s = newSession()
    const c = s.append('context/message', { content: text('old'), source: user })
    startTurn(s)
    startStep(s)
    const a = assistantCalls(s, [['c1', 'read']])
    const r = result(s, 'c1')
    const tail = assistantCalls(s, [['c2', 'read']])
    s.append(
      'context/message',
      { content: text('summary'), source: plugin('compact') },
      { kind: 'replace', fromSeq: c.seq, toSeq: r.seq },
    )
    expect(codeOf(() => s.toolPairingBalancedBefore(a.seq))).toBe('NOT_ON_SURFACE')
    expect(s.toolPairingBalancedBefore(tail.seq)).toBe(true)
    expect(s.toolPairingBalancedAfter(tail.seq)).toBe(false)
    expect(s.inProgressToolCalls).toBe(1)
  })

  test('SL-13 replacing an assistant message without its results is refused with UNBALANCED_REPLACE', () => {
    const s = newSession()
    startTurn(s)
    const u = s.append('user/message', { content: text('go'), source: user })
    startStep(s)
    const a = assistantCalls(s, [
      ['c1', 'read'],
      ['c2', 'read'],
    ])
    const r1 = result(s, 'c1')
    const r2 = result(s, 'c2')
    const replace = (fromSeq: number, toSeq: number) => () =>
      s.append(
        'context/message',
        { content: text('sum'), source: plugin('compact') },
        { kind: 'replace', fromSeq, toSeq },
      )
    const before = s.length
    expect(codeOf(replace(u.seq, a.seq))).toBe('UNBALANCED_REPLACE') // the results stay behind
    expect(codeOf(replace(u.seq, r1.seq))).toBe('UNBALANCED_REPLACE') // one result stays behind
    expect(codeOf(replace(r1.seq, r2.seq))).toBe('UNBALANCED_REPLACE') // results without their call
    expect(s.length).toBe(before)
    replace(u.seq, r2.seq)()
    expect(s.deriveMessages()).toHaveLength(1)
  })
})
