import { describe, expect, test } from 'vitest'
import { createTestAgent, hang, text, toolCalls } from '@tack/agent/testing'
import { registerTool, defineTool } from '@tack/tools'
import type { HookContext } from '@tack/session'
import type { Prompt } from '@tack/agent'
import { deferred, plugin, shape, textOf, user, waitForEvent } from './helpers.ts'

describe('Agent API', () => {
  test('AL-1 content without a source throws MISSING_SOURCE and appends nothing', async () => {
    const t = await createTestAgent()
    const before = t.events().length
    expect(() => t.agent.inject({ content: 'x' } as unknown as HookContext)).toThrow(
      expect.objectContaining({ code: 'MISSING_SOURCE' }),
    )
    expect(() => t.agent.steer({ content: 'x' } as unknown as Prompt)).toThrow(/source/)
    expect(() => t.agent.send({ content: 'x' } as unknown as Prompt)).toThrow(/source/)
    expect(t.events().length).toBe(before)
    await t.dispose()
  })

  test('AL-1 an additionalContext item without a source ends the turn error MISSING_SOURCE', async () => {
    const t = await createTestAgent({
      script: [text('never')],
      setup: (ctx) => {
        ctx.on('agent/prompt-submit', async () => ({
          action: 'allow',
          additionalContext: [{ content: 'no source' } as unknown as HookContext],
        }))
      },
    })
    const outcome = await t.agent.send(user('hi'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'MISSING_SOURCE' })
    expect(t.events().some((e) => e.type === 'context/message')).toBe(false)
    await t.dispose()
  })

  test('AL-2 two sends during a running turn form one next turn; both promises get its outcome', async () => {
    const gate = deferred()
    const t = await createTestAgent({
      script: [text('first'), text('second')],
      setup: (ctx) => {
        let n = 0
        ctx.on('agent/pre-step', async () => {
          if (n++ === 0) await gate.promise
        })
      },
    })
    const p1 = t.agent.send(user('one'))
    await waitForEvent(t.agent.session, (e) => e.type === 'user/message')
    const p2 = t.agent.send(user('two'))
    const p3 = t.agent.send(user('three'))
    gate.resolve()
    const [o1, o2, o3] = await Promise.all([p1, p2, p3])
    expect(o1).toEqual({ turn: 1, reason: { kind: 'completed' } })
    expect(o2).toEqual({ turn: 2, reason: { kind: 'completed' } })
    expect(o3).toEqual(o2)
    const turn2 = t.events().filter((e) => e.type === 'user/message')
    expect(turn2.map(textOf)).toEqual(['one', 'two', 'three'])
    const starts = t.events().filter((e) => e.type === 'turn/start')
    expect(starts).toHaveLength(2)
    // both prompts of turn 2 precede its single step
    const types = shape(t.events())
    const secondTurn = types.slice(types.lastIndexOf('turn/start'))
    expect(secondTurn.slice(0, 4)).toEqual(['turn/start', 'user/message', 'user/message', 'step/start'])
    await t.dispose()
  })

  test('AL-3 a steer during a tool call lands after that step/end and before the next step/start', async () => {
    let steerNow: () => void = () => {}
    const t = await createTestAgent({
      script: [toolCalls([{ name: 'poke', args: {} }]), text('done')],
      setup: (ctx) => {
        registerTool(
          ctx,
          defineTool({
            name: 'poke',
            description: 'steers while running',
            parameters: { type: 'object', properties: {} } as const,
            execute: () => {
              steerNow()
              return 'poked'
            },
          }),
        )
      },
    })
    steerNow = () => t.agent.steer(user('also do this'))
    await t.agent.send(user('go'))
    const types = shape(t.events())
    const i = types.indexOf('steering/message')
    expect(types.slice(i - 1, i + 2)).toEqual(['step/end', 'steering/message', 'step/start'])
    expect(t.model.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'also do this' }],
    })
    await t.dispose()
  })

  test('AL-3 a steer during a final answer yields one more step and continuation is not consulted', async () => {
    let continuationCalls = 0
    const t = await createTestAgent({
      script: [text('answer'), text('after steering')],
      setup: (ctx) => {
        ctx.on('agent/turn-continuation', async (_a, _i, next) => {
          continuationCalls++
          return next()
        })
        ctx.on('agent/request', async (_agent, info, _config, next) => {
          if (info.step === 1) t.agent.steer(user('one more thing'))
          return next()
        })
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    const steps = t.events().filter((e) => e.type === 'step/start')
    expect(steps).toHaveLength(2)
    expect(continuationCalls).toBe(1)
    await t.dispose()
  })

  test('AL-3 steer on an idle agent behaves as send', async () => {
    const t = await createTestAgent({ script: [text('ok')] })
    t.agent.steer(user('hello'))
    await t.agent.whenIdle()
    expect(shape(t.events()).slice(0, 2)).toEqual(['turn/start', 'user/message'])
    await t.dispose()
  })

  test('AL-4 inject: idle appends at once without a turn; wake starts an injection turn; running holds it', async () => {
    const t = await createTestAgent({
      script: [text('woken'), toolCalls([{ name: 'poke', args: {} }]), text('end')],
    })
    t.agent.inject(plugin('ci', 'build is red'))
    expect(shape(t.events())).toEqual(['context/message'])
    expect(t.agent.status).toBe('idle')

    t.agent.inject(plugin('ci', 'wake up'), { wake: true })
    await t.agent.whenIdle()
    const start = t.events().find((e) => e.type === 'turn/start')
    expect(start?.data).toEqual({ turn: 1, trigger: { kind: 'injection' } })
    expect(shape(t.events()).slice(0, 4)).toEqual([
      'context/message',
      'context/message',
      'turn/start',
      'step/start',
    ])

    registerTool(
      t.ctx,
      defineTool({
        name: 'poke',
        description: 'injects while running',
        parameters: { type: 'object', properties: {} } as const,
        execute: () => {
          t.agent.inject(plugin('ci', 'held'))
          return 'ok'
        },
      }),
    )
    await t.agent.send(user('go'))
    const types = shape(t.events())
    const held = t.events().findIndex((e) => e.type === 'context/message' && textOf(e).includes('held'))
    const heldPos = shape(t.events().slice(0, held + 1)).length - 1
    expect(types.slice(heldPos - 1, heldPos + 2)).toEqual(['step/end', 'context/message', 'step/start'])
    await t.dispose()
  })

  test('AL-4 injections still held when a turn ends are appended right after its turn/end', async () => {
    const t = await createTestAgent({
      script: [text('answer')],
      setup: (ctx) => {
        ctx.on('agent/turn-continuation', async (agent, _info, next) => {
          agent.inject(plugin('late', 'after the end'))
          return next()
        })
      },
    })
    await t.agent.send(user('go'))
    expect(shape(t.events()).slice(-2)).toEqual(['turn/end', 'context/message'])
    await t.dispose()
  })

  test('AL-5 status transitions and whenIdle after the second of two queued turns', async () => {
    const seen: string[] = []
    const t = await createTestAgent({
      script: [text('a'), text('b')],
      setup: (ctx) => {
        ctx.on('agent/status', (_a, status, previous) => seen.push(`${previous}→${status}`))
      },
    })
    expect(t.agent.status).toBe('idle')
    await t.agent.whenIdle()
    void t.agent.send(user('1'))
    expect(t.agent.status).toBe('running')
    await waitForEvent(t.agent.session, (e) => e.type === 'step/start')
    void t.agent.send(user('2'))
    await t.agent.whenIdle()
    expect(t.events().filter((e) => e.type === 'turn/end')).toHaveLength(2)
    expect(t.agent.status).toBe('idle')
    await t.dispose()
    expect(seen).toEqual(['idle→running', 'running→idle', 'idle→disposed'])
    expect(t.statusViolations).toEqual([])
  })

  test('AL-23 hang plus cancel ends promptly as aborted; chunks stay, no assistant/message', async () => {
    const t = await createTestAgent({ script: [hang({ text: 'partial' })] })
    const p = t.agent.send(user('go'))
    await waitForEvent(t.agent.session, (e) => e.type === 'assistant/chunk')
    t.agent.cancel()
    const outcome = await p
    expect(outcome.reason).toEqual({ kind: 'aborted' })
    const types = shape(t.events())
    expect(types).toContain('assistant/chunk…')
    expect(types).not.toContain('assistant/message')
    expect(types.slice(-2)).toEqual(['step/end', 'turn/end'])
    await t.dispose()
  })
})

test('AL-23 agent.turnSignal is the running turn signal (seam listeners cut work on it); agent.model is the base model', async () => {
  let seen: AbortSignal | undefined
  const t = await createTestAgent({
    script: [hang()],
    setup: (ctx) => {
      ctx.on('agent/prompt-submit', async (agent, _p, next) => {
        seen = agent.turnSignal
        return next()
      })
    },
  })
  expect(t.agent.turnSignal).toBeUndefined()
  expect(t.agent.model).toBe('scripted/test')
  const p = t.agent.send(user('go'))
  await waitForEvent(t.agent.session, (e) => e.type === 'step/start')
  expect(seen?.aborted).toBe(false)
  t.agent.cancel()
  await p
  expect(seen?.aborted).toBe(true)
  expect(t.agent.turnSignal).toBeUndefined()
  await t.dispose()
})
