// Issue 8.1: firing a seam is typed on both sides. Each `@ts-expect-error` below is a call the type
// checker must reject (a misspelled seam, arguments in the wrong order, a wrong result); `npm test`'s
// type check fails if one of them ever compiles. At run time the same calls show what the types
// prevent: a misspelled seam silently skips every plugin, a swapped argument reaches listeners as is.
import { dispatch, emitSafely, serial, waterfall } from '@tack/kernel'
import type { LlmCallConfig } from '@tack/session'
import { createTestAgent } from '@tack/agent/testing'
import { describe, expect, test } from 'vitest'
import type { PreToolDecision } from '@tack/tools'
import type { PromptDecision } from '../src/index.ts'

const CONFIG: LlmCallConfig = Object.freeze({ model: 'scripted/test' })
const INFO = Object.freeze({ turn: 1, step: 1 })

describe('8.1 seams typed on both sides', () => {
  test('8.1 a well-typed waterfall reaches its listeners; a misspelled one reaches none', async () => {
    const seen: unknown[] = []
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/request', async (_agent, info, _config, next) => {
          seen.push(info)
          return { ...(await next()), temperature: 0.5 }
        })
      },
    })
    const inner = (_a: unknown, _i: unknown, config: LlmCallConfig) => config
    const shaped: LlmCallConfig = await waterfall(t.ctx, 'agent/request', [t.agent, INFO, CONFIG], inner)
    expect(shaped).toEqual({ model: 'scripted/test', temperature: 0.5 })
    expect(seen).toEqual([INFO])

    // @ts-expect-error 'agent/requets' is not a seam
    const misspelled = await waterfall(t.ctx, 'agent/requets', [t.agent, INFO, CONFIG], inner)
    expect(misspelled).toBe(CONFIG)
    expect(seen).toHaveLength(1)
    await t.dispose()
  })

  test('8.1 arguments in the wrong order or a wrong result do not compile', async () => {
    const seen: unknown[] = []
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/request', (agent, _info, _config, next) => {
          seen.push(agent)
          return next()
        })
      },
    })
    // @ts-expect-error the info object and the agent are swapped
    await waterfall(t.ctx, 'agent/request', [INFO, t.agent, CONFIG], (_a, _i, c) => c)
    expect(seen).toEqual([INFO])

    // @ts-expect-error agent/request results in a call config, not a prompt decision
    const decision: PromptDecision = await waterfall(
      t.ctx,
      'agent/request',
      [t.agent, INFO, CONFIG],
      () => CONFIG,
    )
    expect(decision).toBe(CONFIG)

    // @ts-expect-error the default of agent/request must be a call config
    await waterfall(t.ctx, 'agent/request', [t.agent, INFO, CONFIG], () => ({ action: 'allow' }))

    const exec = {
      callId: 'c1',
      name: 'nothing',
      rawArguments: '{}',
      arguments: {},
      cwd: t.cwd,
      signal: new AbortController().signal,
    }
    const allow: PreToolDecision = { action: 'allow' }
    expect((await dispatch(t.ctx, 'tools/pre-execute', [exec], () => allow)).value).toBe(allow)
    // @ts-expect-error 'maybe' is not a PreToolDecision action
    await dispatch(t.ctx, 'tools/pre-execute', [exec], () => ({ action: 'maybe' }))
    await t.dispose()
  })

  test('8.1 serial and emit seams take exactly their declared arguments', async () => {
    const steps: number[] = []
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/pre-step', (_agent, info) => {
          steps.push(info.step)
        })
      },
    })
    const info = { ...INFO, system: '', prefix: [], signal: new AbortController().signal }
    await serial(t.ctx, 'agent/pre-step', t.agent, info)
    expect(steps).toEqual([1])
    // @ts-expect-error agent/pre-step takes the agent, then the step info
    await serial(t.ctx, 'agent/pre-step', info, t.agent).catch(() => {})

    // @ts-expect-error a waterfall seam is not emitted: its listeners expect `next`
    emitSafely(t.ctx, 'agent/request', t.agent, INFO, CONFIG)
    // @ts-expect-error an emit seam has no result to dispatch for
    await dispatch(t.ctx, 'agent/created', [], () => undefined)
    await t.dispose()
  })
})
