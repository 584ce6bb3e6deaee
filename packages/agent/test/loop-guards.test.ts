// Issue 12 item 5 (docs/decisions/0064-no-arbitrary-end.md): long work is not cut off by a step
// limit; what ends a turn that makes no progress is the loop detector, and an optional token budget.
import { describe, expect, test } from 'vitest'
import { canonicalArguments, LoopDetector } from '../src/loop-detector.ts'
import { AgentConfig } from '../src/plugin.ts'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import { defineTool, registerTool } from '@tack/tools'
import type { Context } from 'cordis'
import { user } from './helpers.ts'

const echo = defineTool({
  name: 'echo',
  description: 'echoes its text',
  access: 'read',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' }, n: { type: 'integer' } },
    required: ['text'],
  } as const,
  execute: (args) => args.text,
})
const withEcho = (ctx: Context) => {
  registerTool(ctx, echo)
}

const stepCount = (t: { events(): readonly { type: string }[] }) =>
  t.events().filter((e) => e.type === 'step/start').length

describe('no arbitrary end to long work', () => {
  test('AL-27 a scripted 500-step turn completes with the default settings', {
    timeout: 120_000,
  }, async () => {
    const script = Array.from({ length: 499 }, (_, i) =>
      toolCalls([{ name: 'echo', args: { text: `file ${i}` } }]),
    )
    const t = await createTestAgent({ script: [...script, text('all done')], setup: withEcho })
    const outcome = await t.agent.send(user('work through 499 files'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(stepCount(t)).toBe(500)
    t.model.assertConsumed()
    await t.dispose()
  })

  test('AL-27 a model repeating one identical call ends on the loop detector with a clear reason', async () => {
    const same = toolCalls([{ name: 'echo', args: { text: 'again' } }])
    const t = await createTestAgent({ script: Array.from({ length: 20 }, () => same), setup: withEcho })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toEqual({
      kind: 'error',
      code: 'LOOP_DETECTED',
      message:
        'the model called "echo" 5 times in a row with the same arguments (plugins.agent.maxIdenticalCalls: 5)',
      step: 5,
    })
    // The fifth step closed normally before the turn ended: five calls, five results.
    expect(stepCount(t)).toBe(5)
    expect(t.events().filter((e) => e.type === 'tool/result')).toHaveLength(5)
    expect(t.events().at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { code: 'LOOP_DETECTED' } } })
    await t.dispose()
  })

  test('AL-27 the same arguments in another key order are the same call; any other call in between resets the count', async () => {
    const a = toolCalls([{ name: 'echo', rawArguments: '{"text":"x","n":1}' }])
    const aReordered = toolCalls([{ name: 'echo', rawArguments: '{ "n": 1, "text": "x" }' }])
    const b = toolCalls([{ name: 'echo', args: { text: 'y' } }])
    const t = await createTestAgent({
      config: { agent: { maxIdenticalCalls: 3 } },
      script: [a, aReordered, b, a, aReordered, b, a, aReordered, aReordered, text('never')],
      setup: withEcho,
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'LOOP_DETECTED', step: 9 })
    await t.dispose()
  })

  test('AL-27 identical calls within one message count too', () => {
    const detector = new LoopDetector(3)
    const call = { name: 'read', arguments: '{"path":"a"}' }
    expect(detector.observe([call, call])).toBeUndefined()
    expect(detector.observe([{ name: 'read', arguments: '{"path":"b"}' }, call])).toBeUndefined()
    expect(detector.observe([call, call, call])).toEqual({ name: 'read', times: 3 })
    expect(canonicalArguments('not json')).toBe('not json')
    expect(canonicalArguments('{"b":[{"d":1,"c":2}],"a":null}')).toBe('{"a":null,"b":[{"c":2,"d":1}]}')
  })

  test('AL-27 maxIdenticalCalls 0 turns the detector off', async () => {
    const same = toolCalls([{ name: 'echo', args: { text: 'again' } }])
    const t = await createTestAgent({
      config: { agent: { maxIdenticalCalls: 0 } },
      script: [...Array.from({ length: 8 }, () => same), text('done')],
      setup: withEcho,
    })
    expect((await t.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
    await t.dispose()
  })

  test('AL-28 maxTurnTokens ends the turn before the request after the budget is spent', async () => {
    const usage = { inputTokens: 400, outputTokens: 100 }
    const step = (i: number) => toolCalls([{ name: 'echo', args: { text: `${i}` } }], { usage })
    const t = await createTestAgent({
      config: { agent: { maxTurnTokens: 1200 } },
      script: [step(1), step(2), step(3), step(4), step(5), step(6), text('never')],
      setup: withEcho,
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toEqual({
      kind: 'error',
      code: 'TOKEN_BUDGET',
      message: 'the turn used 1500 tokens, more than its budget (plugins.agent.maxTurnTokens: 1200)',
      step: 3,
    })
    expect(t.model.requests).toHaveLength(3)
    // The budget is per turn: the next turn starts from zero.
    const again = await t.agent.send(user('one more'))
    expect(again.reason).toMatchObject({ kind: 'error', code: 'TOKEN_BUDGET', step: 3 })
    await t.dispose()
  })

  test('AL-28 a final answer over the budget still completes: the budget only stops further requests', async () => {
    const t = await createTestAgent({
      config: { agent: { maxTurnTokens: 10 } },
      script: [text('short answer', { usage: { inputTokens: 500, outputTokens: 20 } })],
    })
    expect((await t.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
    await t.dispose()
  })

  test('AL-27 AL-28 defaults, configured values and rejected values of the guards', async () => {
    const d = AgentConfig.parse({})
    expect([d.maxStepsPerTurn, d.maxIdenticalCalls, d.maxTurnTokens]).toEqual([10000, 5, 0])
    expect(AgentConfig.parse({ maxIdenticalCalls: 2, maxTurnTokens: 50000 })).toMatchObject({
      maxIdenticalCalls: 2,
      maxTurnTokens: 50000,
    })
    expect(() => AgentConfig.parse({ maxIdenticalCalls: -1 })).toThrow(
      /maxIdenticalCalls: must be an integer 0–1000 \(got -1\)/,
    )
    expect(() => AgentConfig.parse({ maxIdenticalCalls: 1001 })).toThrow(/maxIdenticalCalls/)
    expect(() => AgentConfig.parse({ maxTurnTokens: 1.5 })).toThrow(/maxTurnTokens/)
    expect(() => AgentConfig.parse({ maxTurnTokens: -5 })).toThrow(/maxTurnTokens/)
    await expect(createTestAgent({ config: { agent: { maxTurnTokens: 'lots' } } })).rejects.toThrow(
      /maxTurnTokens/,
    )
  })
})
