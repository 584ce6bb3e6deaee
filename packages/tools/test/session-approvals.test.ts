// A person's answers to permission questions (the TUI's prompt, an ACP client's options) as the pipeline
// takes them, and the session rules the session-wide ones leave (TL-35).
import { describe, expect, test } from 'vitest'
import { approvalRuleKey, SessionApprovals } from '../src/index.ts'

const ls = approvalRuleKey({ name: 'bash', arguments: { command: 'ls' } })
const rm = approvalRuleKey({ name: 'bash', arguments: { command: 'rm -rf /' } })

describe('SessionApprovals', () => {
  test('TL-35 a once answer is the user’s and leaves no rule', () => {
    const rules = new SessionApprovals()
    expect(rules.answer(ls, { action: 'allow', scope: 'once' })).toEqual({
      action: 'allow',
      by: 'user',
      scope: 'once',
    })
    expect(rules.answer(ls, { action: 'deny', scope: 'once', reason: 'no' })).toEqual({
      action: 'deny',
      by: 'user',
      reason: 'no',
      scope: 'once',
    })
    expect(rules.match(ls)).toBeUndefined()
  })

  test('TL-35 a session answer answers later calls of the same bash command by rule, and no other command', () => {
    const rules = new SessionApprovals()
    expect(rules.answer(ls, { action: 'allow', scope: 'session' })).toEqual({
      action: 'allow',
      by: 'user',
      scope: 'session',
    })
    expect(rules.match(ls)).toEqual({ action: 'allow', by: 'rule', scope: 'session' })
    expect(rules.match(rm)).toBeUndefined()
    rules.answer(rm, { action: 'deny', scope: 'session', reason: 'never' })
    expect(rules.match(rm)).toEqual({ action: 'deny', by: 'rule', reason: 'never', scope: 'session' })
  })
})
