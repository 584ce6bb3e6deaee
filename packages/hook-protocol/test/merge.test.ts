// A6: the merge of one point's outputs in config order.
import { describe, expect, it } from 'vitest'
import { type HookOutput, mergeHookOutputs } from '../src/index.ts'

const out = (fields: Partial<HookOutput>): HookOutput => ({
  failed: false,
  stdout: '',
  stderr: '',
  json: true,
  exitCode: 0,
  ...fields,
})

describe('A6 merge', () => {
  it('A6 [allow, ask, deny] → deny with the deny reason only', () => {
    const m = mergeHookOutputs([
      out({ decision: 'allow', reason: 'a' }),
      out({ decision: 'ask', reason: 'b' }),
      out({ decision: 'deny', reason: 'c' }),
    ])
    expect(m.decision).toBe('deny')
    expect(m.reason).toBe('c')
  })

  it('A6 block counts as deny and approve as allow; same-level reasons join with a blank line', () => {
    expect(
      mergeHookOutputs([out({ decision: 'approve' }), out({ decision: 'allow', reason: 'x' })]),
    ).toMatchObject({
      decision: 'allow',
      reason: 'x',
    })
    const m = mergeHookOutputs([
      out({ decision: 'block', reason: 'one' }),
      out({ decision: 'ask', reason: 'no' }),
      out({ decision: 'deny', reason: 'two' }),
      out({ decision: 'deny', reason: '' }),
    ])
    expect(m).toMatchObject({ decision: 'deny', reason: 'one\n\ntwo' })
  })

  it('A6 two halts keep the first reason (sticky stop)', () => {
    const m = mergeHookOutputs([
      out({ continue: false, stopReason: 'first' }),
      out({ continue: false, stopReason: 'second' }),
    ])
    expect(m.stop).toEqual({ reason: 'first' })
    expect(mergeHookOutputs([out({ continue: false })]).stop).toEqual({})
    expect(mergeHookOutputs([out({ continue: true })]).stop).toBeUndefined()
  })

  it('A6 contexts, system messages and plain stdout accumulate in order; failures are counted, not used', () => {
    const m = mergeHookOutputs([
      out({ additionalContext: 'c1', systemMessage: 's1' }),
      out({ json: false, stdout: 'plain 1' }),
      out({ failed: true, json: false, stdout: 'ignored', exitCode: 1 }),
      out({ json: false, stdout: 'exit 2 text', decision: 'block', exitCode: 2 }),
      out({ additionalContext: 'c2', systemMessage: 's2' }),
      out({ json: false, stdout: 'plain 2' }),
    ])
    expect(m.contexts).toEqual(['c1', 'c2'])
    expect(m.systemMessages).toEqual(['s1', 's2'])
    expect(m.plainStdout).toEqual(['plain 1', 'plain 2'])
    expect(m.failed).toBe(1)
  })

  it('A6 no outputs: nothing decided; the last updatedInput in config order is kept', () => {
    const empty = mergeHookOutputs([])
    expect(empty).toEqual({ contexts: [], systemMessages: [], plainStdout: [], failed: 0 })
    const m = mergeHookOutputs([out({ updatedInput: { a: 1 } }), out({ updatedInput: { a: 2 } })])
    expect(m.updatedInput).toEqual({ a: 2 })
  })
})
