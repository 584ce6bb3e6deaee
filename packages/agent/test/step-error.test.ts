// `agent/step-error` (docs/decisions/0060-compaction.md): after a failed step a listener may ask for one
// more step instead of ending the turn; never for failures of the log or of a seam, and an invalid answer
// is a plugin error.
import { describe, expect, test } from 'vitest'
import { createTestAgent, error, text } from '@tack/agent/testing'
import type { StepErrorInfo } from '../src/index.ts'
import { user } from './helpers.ts'

describe('agent/step-error', () => {
  test('a retry runs one more step in the same turn; the failed step is closed first', async () => {
    const seen: StepErrorInfo[] = []
    const t = await createTestAgent({
      script: [error('too long', { code: 'CONTEXT_TOO_LONG', status: 400 }), text('fine now')],
      setup: (ctx) => {
        ctx.on('agent/step-error', (_agent, info) => {
          seen.push(info)
          expect(t.types().at(-1)).toBe('step/end')
          return { action: 'retry' }
        })
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(seen.map((i) => [i.step, i.code, i.retries])).toEqual([[1, 'CONTEXT_TOO_LONG', 0]])
    expect(t.types().filter((x) => x === 'step/start')).toHaveLength(2)
    await t.dispose()
  })

  test('without a listener (default fail) the turn ends with the step error', async () => {
    const t = await createTestAgent({ script: [error('bad', { code: 'HTTP_400', status: 400 })] })
    expect((await t.agent.send(user('go'))).reason).toMatchObject({
      kind: 'error',
      code: 'HTTP_400',
      step: 1,
    })
    await t.dispose()
  })

  test('retries is counted per turn, so a listener can bound them', async () => {
    const retries: number[] = []
    const t = await createTestAgent({
      script: [error('a', { code: 'X' }), error('b', { code: 'X' }), error('c', { code: 'X' })],
      setup: (ctx) => {
        ctx.on('agent/step-error', (_agent, info) => {
          retries.push(info.retries)
          return { action: info.retries < 2 ? 'retry' : 'fail' }
        })
      },
    })
    expect((await t.agent.send(user('go'))).reason).toMatchObject({ kind: 'error', code: 'X', message: 'c' })
    expect(retries).toEqual([0, 1, 2])
    await t.dispose()
  })

  test('an invalid decision ends the turn PLUGIN_ERROR; a PLUGIN_ERROR step is never offered for retry', async () => {
    let asked = 0
    const t = await createTestAgent({
      script: [error('x', { code: 'X' })],
      setup: (ctx) => {
        ctx.on('agent/step-error', () => {
          asked++
          return { action: 'maybe' } as never
        })
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'PLUGIN_ERROR' })
    expect(asked).toBe(1)
    await t.dispose()

    let offered = 0
    const u = await createTestAgent({
      script: [text('never reached')],
      setup: (ctx) => {
        ctx.on('agent/pre-step', () => {
          throw new Error('pre-step broke')
        })
        ctx.on('agent/step-error', () => {
          offered++
          return { action: 'retry' }
        })
      },
    })
    expect((await u.agent.send(user('go'))).reason).toMatchObject({ kind: 'error', code: 'PLUGIN_ERROR' })
    expect(offered).toBe(0)
    await u.dispose()
  })
})
