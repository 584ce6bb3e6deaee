// A person's answers to permission questions (the TUI's prompt, an ACP client's options) as the pipeline
// takes them, and the session rules the session-wide ones leave (TL-35).
import { describe, expect, test } from 'vitest'
import { approvalRuleKey, SessionApprovals, type UserApproval } from '../src/index.ts'

const run = (name: string, command: string, access: 'execute' | 'write' = 'execute') =>
  approvalRuleKey({ exec: { name, arguments: { command } }, access })
const ls = run('bash', 'ls')
const rm = run('bash', 'rm -rf /')

describe('SessionApprovals', () => {
  test.each<[UserApproval, string]>([
    [{ action: 'allow', scope: 'once' }, 'none'],
    [{ action: 'deny', scope: 'once', reason: 'no' }, 'none'],
    [{ action: 'allow', scope: 'session' }, 'allow'],
    [{ action: 'deny', scope: 'session', reason: 'no' }, 'deny'],
  ])('TL-35 %o is the user’s answer; the rule it leaves for the command: %s', (answer, rule) => {
    const rules = new SessionApprovals()
    expect(rules.answer(ls, answer)).toEqual({ ...answer, by: 'user' })
    const kept = expect.objectContaining({ action: rule, by: 'rule', scope: 'session' })
    expect(rules.match(ls)).toEqual(rule === 'none' ? undefined : kept)
  })

  test('TL-35 a session rule answers the same bash command only, with its reason', () => {
    const rules = new SessionApprovals()
    rules.answer(ls, { action: 'allow', scope: 'session' })
    rules.answer(rm, { action: 'deny', scope: 'session', reason: 'never' })
    expect(rules.match(ls)).toEqual({ action: 'allow', by: 'rule', scope: 'session' })
    expect(rules.match(rm)).toEqual({ action: 'deny', by: 'rule', reason: 'never', scope: 'session' })
    expect(rules.match(run('bash', 'ls -la'))).toBeUndefined()
  })

  test('TL-35 any tool that declares execute access gets per-command rules (its command, else all its arguments), not only bash; other tools one rule each', () => {
    const rules = new SessionApprovals()
    rules.answer(run('python_exec', 'print(1)'), { action: 'allow', scope: 'session' })
    expect(rules.match(run('python_exec', 'print(1)'))).toEqual({
      action: 'allow',
      by: 'rule',
      scope: 'session',
    })
    expect(rules.match(run('python_exec', 'import os; os.remove("x")'))).toBeUndefined()
    expect(rules.match(run('bash', 'print(1)'))).toBeUndefined()
    const script = (text: string) =>
      approvalRuleKey({ exec: { name: 'run_script', arguments: { script: text } }, access: 'execute' })
    rules.answer(script('echo harmless'), { action: 'allow', scope: 'session' })
    expect(rules.match(script('echo harmless'))).toEqual({ action: 'allow', by: 'rule', scope: 'session' })
    expect(rules.match(script('echo DANGEROUS > x'))).toBeUndefined()
    rules.answer(run('stamp', 'a', 'write'), { action: 'allow', scope: 'session' })
    expect(rules.match(run('stamp', 'b', 'write'))).toEqual({ action: 'allow', by: 'rule', scope: 'session' })
  })
})
