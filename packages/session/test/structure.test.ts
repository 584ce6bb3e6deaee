import { describe, expect, test } from 'vitest'
import type { SessionEvent } from '../src/index.ts'
import { checkLogStructure, createStructureChecker, InvariantError } from '../src/testing/index.ts'
import { writeLog } from './log-fixtures.ts'

const T = '2025-01-01T00:00:00.000Z'
/** Builds raw events (bypassing Session's own checks) so each broken rule can be expressed. */
function log(...specs: Array<[string, object?, object?]>): SessionEvent[] {
  return specs.map(
    ([type, data = {}, op], seq) => ({ type, seq, time: T, data, ...(op ? { op } : {}) }) as SessionEvent,
  )
}
const A = { kind: 'append' }
const msg = { content: [{ type: 'text', text: 'x' }], source: { kind: 'user' } }
const call = (callId: string, name = 'read') => ({ type: 'tool-call', callId, name, arguments: '{}' })
const assistant = (...calls: object[]) => ({ turn: 1, step: 1, content: calls, finishReason: 'tool-calls' })
const res = (callId: string, name = 'read') => ({ callId, name, content: [], isError: false })
const open: Array<[string, object?, object?]> = [
  ['turn/start', { turn: 1, trigger: { kind: 'message' } }],
  ['step/start', { turn: 1, step: 1 }],
]

function ruleOf(events: SessionEvent[]): { rule: string; seq?: number } {
  try {
    checkLogStructure(events)
  } catch (error) {
    expect(error).toBeInstanceOf(InvariantError)
    return { rule: (error as InvariantError).rule, seq: (error as InvariantError).seq }
  }
  throw new Error('expected an InvariantError')
}

describe('structure checker', () => {
  test('SL-20 well-formed logs pass: turns, steps, calls, context between turns, plugin events, compaction', () => {
    const events = writeLog([
      {
        steps: [
          { chunks: 2, calls: 2, context: true },
          { chunks: 1, calls: 0, context: false },
        ],
        between: 'context',
      },
      { steps: [{ chunks: 0, calls: 1, context: false }], between: 'compact' },
      { steps: [{ chunks: 0, calls: 0, context: false }], between: 'plugin-event' },
    ])
    expect(() => checkLogStructure(events)).not.toThrow()
  })

  const failing: Array<[string, string, SessionEvent[], number]> = [
    ['a seq gap', 'seq', log(['turn/start', { turn: 1 }]).map((e) => ({ ...e, seq: 1 })), 0],
    ['a type that is not noun/verb', 'envelope', log(['Turn']), 0],
    [
      'SL-5 assistant/chunk outside a step',
      'enclosure',
      log(['turn/start', { turn: 1 }], ['assistant/chunk', { turn: 1, step: 1 }]),
      1,
    ],
    ['SL-5 user/message outside a turn', 'enclosure', log(['user/message', msg, A]), 0],
    ['SL-5 step/start outside a turn', 'enclosure', log(['step/start', { turn: 1, step: 1 }]), 0],
    [
      'SL-5 request/header outside a step',
      'enclosure',
      log(
        ['turn/start', { turn: 1 }],
        ['request/header', { header: { config: { model: 'm' } }, reason: 'initial' }],
      ),
      1,
    ],
    ['SL-5 tool/result outside a step', 'enclosure', log(['tool/result', res('c1'), A]), 0],
    ['a turn inside a turn', 'enclosure', log(['turn/start', { turn: 1 }], ['turn/start', { turn: 2 }]), 1],
    ['turn/end while a step is open', 'enclosure', log(...open, ['turn/end', { turn: 1 }]), 2],
    [
      'turn/end naming another turn',
      'enclosure',
      log(['turn/start', { turn: 1 }], ['turn/end', { turn: 2 }]),
      1,
    ],
    [
      'step/end with no step',
      'enclosure',
      log(['turn/start', { turn: 1 }], ['step/end', { turn: 1, step: 1 }]),
      1,
    ],
    ['an event naming another step', 'enclosure', log(...open, ['assistant/chunk', { turn: 1, step: 2 }]), 2],
    ['a result with no call block', 'pairing', log(...open, ['tool/result', res('c1'), A]), 2],
    [
      'a result before its call block',
      'pairing',
      log(...open, ['tool/result', res('c1'), A], ['assistant/message', assistant(call('c1')), A]),
      2,
    ],
    [
      'a second result for one call',
      'pairing',
      log(
        ...open,
        ['assistant/message', assistant(call('c1')), A],
        ['tool/result', res('c1'), A],
        ['tool/result', res('c1'), A],
      ),
      4,
    ],
    [
      'a result naming another tool',
      'pairing',
      log(...open, ['assistant/message', assistant(call('c1')), A], ['tool/result', res('c1', 'bash'), A]),
      3,
    ],
    [
      'a tool/call with no call block',
      'pairing',
      log(...open, ['tool/call', { turn: 1, step: 1, callId: 'c9', name: 'read' }]),
      2,
    ],
    [
      'a duplicate open call id',
      'pairing',
      log(...open, ['assistant/message', assistant(call('c1'), call('c1')), A]),
      2,
    ],
    [
      'step/end with an unanswered call',
      'pairing',
      log(...open, ['assistant/message', assistant(call('c1')), A], ['step/end', { turn: 1, step: 1 }]),
      3,
    ],
    ['a surface event without op', 'surface-op', log(['context/message', msg]), 0],
    ['a log-only event with op', 'surface-op', log(['turn/start', { turn: 1 }, A]), 0],
    [
      'a replace of a node not on the surface',
      'surface-op',
      log(['context/message', msg, A], ['context/message', msg, { kind: 'replace', fromSeq: 5, toSeq: 5 }]),
      1,
    ],
    [
      'an unbalanced replace',
      'surface-op',
      log(
        ...open,
        ['assistant/message', assistant(call('c1')), A],
        ['context/message', msg, { kind: 'replace', fromSeq: 2, toSeq: 2 }],
      ),
      3,
    ],
    [
      'a header delta with no snapshot',
      'header',
      log(...open, ['request/header-delta', { config: { model: 'm' } }]),
      2,
    ],
  ]
  test.each(failing)('SL-20 a failing fixture: %s → rule %s', (_name, rule, events, seq) => {
    expect(ruleOf(events)).toEqual({ rule, seq })
  })

  test('SL-20 the incremental checker keeps going after a failure and counts events', () => {
    const checker = createStructureChecker()
    const events = log(
      ['turn/start', { turn: 1 }],
      ['assistant/chunk', { turn: 1, step: 1 }],
      ['turn/end', { turn: 1 }],
    )
    checker.check(events[0])
    expect(() => checker.check(events[1])).toThrow(InvariantError)
    expect(() => checker.check(events[2])).not.toThrow()
    expect(checker.count).toBe(3)
  })
})
