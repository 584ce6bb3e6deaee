// A7: hook/invoked and hook/result, the decision derivation and the bounded stderr summary.
import { describe, expect, it } from 'vitest'
import {
  appendHookInvoked,
  appendHookResult,
  deriveHookDecision,
  type HookInvocation,
  type HookOutput,
  hookResultOf,
  summarizeStderr,
} from '../src/index.ts'
import { newSession } from './helpers.ts'

const base: HookOutput = { failed: false, stdout: '', stderr: '', json: false, exitCode: 0 }
const invocation: HookInvocation = {
  point: 'PreToolUse',
  dialect: 'claude',
  handlerId: '/s.json:PreToolUse:0:0',
  matcher: 'Bash',
  toolCallId: 'call_1',
  turn: 1,
}

describe('A7 log events', () => {
  it('A7 decision derivation: the hook decision, else stop for continue:false, else pass', () => {
    expect(deriveHookDecision({ ...base, decision: 'deny' })).toBe('deny')
    expect(deriveHookDecision({ ...base, decision: 'block', continue: false })).toBe('block')
    expect(deriveHookDecision({ ...base, continue: false })).toBe('stop')
    expect(deriveHookDecision({ ...base, continue: true })).toBe('pass')
    expect(deriveHookDecision({ ...base, failed: true })).toBe('pass')
  })

  it('A7 600 stderr characters → 500 + …, or 20 + … when configured; empty → absent', () => {
    const stderr = 'e'.repeat(600)
    expect(hookResultOf({ invocation, output: { ...base, stderr } }).stderrSummary).toBe(
      `${'e'.repeat(500)}…`,
    )
    expect(
      hookResultOf({ invocation, output: { ...base, stderr }, stderrSummaryMaxChars: 20 }).stderrSummary,
    ).toBe(`${'e'.repeat(20)}…`)
    expect(hookResultOf({ invocation, output: base }).stderrSummary).toBeUndefined()
    expect(summarizeStderr('short', 500)).toBe('short')
    // A cut never splits a surrogate pair.
    expect(summarizeStderr('a😀b', 2)).toBe('a…')
  })

  it('A7 invoked and result bracket a run, between turns too, with only the defined fields', () => {
    const session = newSession()
    appendHookInvoked(session, { point: 'SessionStart', dialect: 'claude', handlerId: 'h', turn: undefined })
    appendHookResult(session, {
      invocation: { point: 'SessionStart', dialect: 'claude', handlerId: 'h' },
      output: { ...base, exitCode: 1, failed: true, stderr: 'boom', systemMessage: 'note' },
    })
    appendHookInvoked(session, invocation)
    appendHookResult(session, {
      invocation,
      output: { ...base, exitCode: 2, decision: 'block', reason: 'no', stderr: 'no' },
      stderrSummaryMaxChars: 500,
    })
    appendHookResult(session, {
      invocation,
      output: { ...base, failed: true, timedOut: true, exitCode: undefined },
    })
    const events = session.events()
    expect(events.map((e) => e.type)).toEqual([
      'hook/invoked',
      'hook/result',
      'hook/invoked',
      'hook/result',
      'hook/result',
    ])
    expect(events[0].data).toEqual({ point: 'SessionStart', dialect: 'claude', handlerId: 'h' })
    expect(events[1].data).toEqual({
      point: 'SessionStart',
      dialect: 'claude',
      handlerId: 'h',
      decision: 'pass',
      exitCode: 1,
      stderrSummary: 'boom',
      systemMessage: 'note',
      failed: true,
    })
    expect(events[2].data).toEqual(invocation)
    expect(events[3].data).toEqual({
      turn: 1,
      point: 'PreToolUse',
      dialect: 'claude',
      handlerId: '/s.json:PreToolUse:0:0',
      decision: 'block',
      exitCode: 2,
      stderrSummary: 'no',
      reason: 'no',
    })
    expect(events[4].data).toMatchObject({ decision: 'pass', timedOut: true, failed: true })
    // Log-only: nothing reaches the model.
    expect(session.deriveMessages()).toEqual([])
  })
})
