import { describe, expect, test } from 'vitest'
import type { Message } from '@tack/session'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import { defineTool, registerTool } from '@tack/tools'
import { plugin, shape, textOf, user, waitForEvent } from './helpers.ts'

describe('seams', () => {
  test('AL-9 a blocking first prompt-submit listener keeps the second from running', async () => {
    let secondRan = false
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/prompt-submit', async () => ({ action: 'block', reason: 'nope' }))
        ctx.on('agent/prompt-submit', async (_a, _p, next) => {
          secondRan = true
          return next()
        })
      },
    })
    const outcome = await t.agent.send(user('x'))
    expect(outcome.reason).toEqual({ kind: 'rejected', reason: 'nope' })
    expect(secondRan).toBe(false)
    await t.dispose()
  })

  test('AL-9 a first listener that calls next() and adds context to the second allow yields both', async () => {
    const t = await createTestAgent({
      script: [text('ok')],
      setup: (ctx) => {
        ctx.on('agent/prompt-submit', async (_a, _p, next) => {
          const d = await next()
          return { ...d, additionalContext: [...(d.additionalContext ?? []), plugin('first', 'from first')] }
        })
        ctx.on('agent/prompt-submit', async () => ({
          action: 'allow',
          additionalContext: [plugin('second', 'from second')],
        }))
      },
    })
    await t.agent.send(user('x'))
    const contexts = t
      .events()
      .filter((e) => e.type === 'context/message')
      .map(textOf)
    expect(contexts).toEqual(['from second', 'from first'])
    // the model sees each in its plugin envelope, never as the user's words
    const texts = t.model.requests[0].messages.map((m) =>
      m.content.map((b) => ('text' in b ? b.text : '')).join(''),
    )
    expect(texts[1]).toMatch(/^<context source="plugin:second">\s*from second\s*<\/context>$/)
    expect(texts[2]).toMatch(/^<context source="plugin:first">\s*from first\s*<\/context>$/)
    await t.dispose()
  })

  test('AL-10 a synchronous session-start injector precedes turn/start; an asynchronous one lands at a later drain', async () => {
    const t = await createTestAgent({
      script: [toolCalls([{ name: 'wait', args: {} }]), text('done')],
      setup: (ctx) => {
        ctx.on('agent/session-start', (agent, source) => {
          agent.inject(plugin('sync', `source=${source}`))
          // an asynchronous injection: best-effort, lands wherever the next drain is
          void Promise.resolve().then(() => agent.inject(plugin('async', 'later')))
        })
        registerTool(
          ctx,
          defineTool({
            name: 'wait',
            description: 'lets a macrotask pass',
            parameters: { type: 'object', properties: {} } as const,
            execute: () => new Promise<string>((r) => setTimeout(() => r('waited'), 1)),
          }),
        )
      },
    })
    const first = t.events()[0]
    expect(first.type).toBe('context/message')
    expect(textOf(first)).toContain('source=startup')
    await t.agent.send(user('go'))
    const types = shape(t.events())
    expect(types.indexOf('context/message')).toBeLessThan(types.indexOf('turn/start'))
    // the async one never splits a call from its result
    const asyncIdx = t.events().findIndex((e) => textOf(e).includes('later'))
    expect(asyncIdx).toBeGreaterThan(-1)
    const before = t.events()[asyncIdx - 1]
    expect(before.type === 'tool/call').toBe(false)
    await t.dispose()
  })

  test('AL-11 a rewrite shows in user/message and its additionalContext is visible to pre-step in the same turn', async () => {
    let seenByPreStep: Message[] = []
    const t = await createTestAgent({
      script: [text('ok')],
      setup: (ctx) => {
        ctx.on('agent/prompt-submit', async () => ({
          action: 'allow',
          content: 'rewritten',
          additionalContext: [plugin('policy', 'remember the rules')],
        }))
        ctx.on('agent/pre-step', (agent) => {
          seenByPreStep = [...agent.session.deriveMessages()]
        })
      },
    })
    await t.agent.send(user('original'))
    expect(textOf(t.events().find((e) => e.type === 'user/message')!)).toBe('rewritten')
    expect(JSON.stringify(seenByPreStep)).toContain('remember the rules')
    await t.dispose()
  })

  test('AL-11 user steering is gated at drain time; plugin steering is not', async () => {
    const gated: string[] = []
    const t = await createTestAgent({
      script: [toolCalls([{ name: 'steer', args: {} }]), text('done')],
      setup: (ctx) => {
        ctx.on('agent/prompt-submit', async (_a, prompt, next) => {
          gated.push(String(prompt.content))
          if (prompt.content === 'bad steer') return { action: 'block', reason: 'policy' }
          return next()
        })
        registerTool(
          ctx,
          defineTool({
            name: 'steer',
            description: 'steers twice',
            parameters: { type: 'object', properties: {} } as const,
            execute: (_a, call) => {
              call.agent?.steer(user('bad steer'))
              call.agent?.steer(plugin('bot', 'plugin steer'))
              return 'ok'
            },
          }),
        )
      },
    })
    await t.agent.send(user('go'))
    expect(gated).toEqual(['go', 'bad steer'])
    const types = shape(t.events())
    expect(types).toContain('prompt/blocked')
    expect(
      t
        .events()
        .filter((e) => e.type === 'steering/message')
        .map(textOf),
    ).toEqual(['plugin steer'])
    await t.dispose()
  })

  /** An agent that steers `content` once, at the first step's pre-step: after that step's own drain, so
   * it is still held when the step answers without tool calls. `bad steer` is blocked at admission. */
  async function steeredAfterDrain(content: string) {
    let steered = false
    const t = await createTestAgent({
      script: [text('first answer'), text('second answer')],
      setup: (ctx) => {
        ctx.on('agent/prompt-submit', async (_a, prompt, next) =>
          prompt.content === 'bad steer' ? { action: 'block', reason: 'policy' } : next(),
        )
        ctx.on('agent/pre-step', (agent) => {
          if (steered) return
          steered = true
          agent.steer(user(content))
        })
      },
    })
    const outcome = await t.agent.send(user('go'))
    const order = t
      .events()
      .filter((e) => e.type === 'step/start' || e.type === 'steering/message' || e.type === 'prompt/blocked')
      .map((e) => (e.type === 'steering/message' ? textOf(e) : e.type))
    await t.dispose()
    return { outcome, requests: t.model.requests.length, order }
  }

  test('AL-11 steering held when a step answers and blocked at the drain costs no step and no model call', async () => {
    const r = await steeredAfterDrain('bad steer')
    expect(r.outcome.reason).toEqual({ kind: 'completed' })
    expect(r.requests).toBe(1)
    expect(r.order).toEqual(['step/start', 'prompt/blocked'])
  })

  test('AL-11 steering held when a step answers and admitted at the drain runs the next step with it', async () => {
    const r = await steeredAfterDrain('good steer')
    expect(r.requests).toBe(2)
    expect(r.order).toEqual(['step/start', 'good steer', 'step/start'])
  })

  test('AL-12 a mixed batch runs with the rest; a fully blocked batch ends rejected with no step and no model call', async () => {
    const t = await createTestAgent({
      script: [text('answer')],
      setup: (ctx) => {
        ctx.on('agent/prompt-submit', async (_a, p, next) =>
          String(p.content).startsWith('bad') ? { action: 'block', reason: `blocked ${p.content}` } : next(),
        )
      },
    })
    const blocked = await t.agent.send(user('bad 1'))
    expect(blocked.reason).toEqual({ kind: 'rejected', reason: 'blocked bad 1' })
    expect(t.model.requests).toHaveLength(0)
    expect(shape(t.events())).toEqual(['turn/start', 'prompt/blocked', 'turn/end'])

    // prompts sent in the same frame share one batch: one blocked, one admitted
    const [o1, o2] = await Promise.all([t.agent.send(user('bad 2')), t.agent.send(user('good'))])
    expect(o1).toEqual(o2)
    expect(o1.reason).toEqual({ kind: 'completed' })
    expect(t.model.requests).toHaveLength(1)
    await t.dispose()
  })

  test('AL-12 mixed batch in one turn: blocked prompt recorded, the turn runs with the rest', async () => {
    const t = await createTestAgent({
      script: [text('a'), text('b')],
      setup: (ctx) => {
        ctx.on('agent/prompt-submit', async (_a, p, next) =>
          p.content === 'bad' ? { action: 'block', reason: 'no' } : next(),
        )
      },
    })
    const first = t.agent.send(user('warm up'))
    await waitForEvent(t.agent.session, (e) => e.type === 'step/start')
    const mixed = [t.agent.send(user('bad')), t.agent.send(user('good'))]
    await first
    const [o1, o2] = await Promise.all(mixed)
    expect(o1).toEqual(o2)
    expect(o1.reason).toEqual({ kind: 'completed' })
    const turn2 = shape(t.events()).slice(shape(t.events()).lastIndexOf('turn/start'))
    expect(turn2.slice(0, 4)).toEqual(['turn/start', 'prompt/blocked', 'user/message', 'step/start'])
    await t.dispose()
  })

  test('AL-13 the prefix contributor runs once across two turns; the same frozen message is reused and never derived', async () => {
    let calls = 0
    const t = await createTestAgent({
      script: [text('a'), text('b')],
      setup: (ctx) => {
        ctx.on('agent/session-prefix', async (_agent, seed, _signal, next) => {
          calls++
          const base = await next()
          expect(base).toBe(seed)
          return [...base, { role: 'user', content: [{ type: 'text', text: 'project rules' }] }]
        })
      },
    })
    await t.agent.send(user('one'))
    await t.agent.send(user('two'))
    expect(calls).toBe(1)
    expect(t.model.requests[0].messages[0]).toBe(t.model.requests[1].messages[0])
    expect(JSON.stringify(t.agent.session.deriveMessages())).not.toContain('project rules')
    const headers = t.events().filter((e) => e.type === 'request/header')
    expect(headers).toHaveLength(1)
    expect(JSON.stringify(headers[0].data)).toContain('project rules')
    expect(t.events().some((e) => e.type === 'request/header-delta' && 'messagePrefix' in e.data)).toBe(false)
    await t.dispose()
  })

  test('AL-13 an invalid prefix ends the turn PREFIX_INVALID; a throwing one caches nothing and the next turn retries', async () => {
    let n = 0
    const t = await createTestAgent({
      script: [text('ok')],
      setup: (ctx) => {
        ctx.on('agent/session-prefix', async () => {
          n++
          if (n === 1) throw new Error('prefix broke')
          if (n === 2)
            return [{ role: 'tool', callId: 'x', name: 'y', content: [], isError: false }] as Message[]
          return []
        })
      },
    })
    expect((await t.agent.send(user('1'))).reason).toMatchObject({ kind: 'error', code: 'PLUGIN_ERROR' })
    expect((await t.agent.send(user('2'))).reason).toMatchObject({ kind: 'error', code: 'PREFIX_INVALID' })
    expect((await t.agent.send(user('3'))).reason).toEqual({ kind: 'completed' })
    expect(n).toBe(3)
    await t.dispose()
  })

  test('AL-14 a pre-step listener that replaces surface nodes changes the request; the invariant holds', async () => {
    const t = await createTestAgent({
      script: [text('a'), text('b')],
      setup: (ctx) => {
        ctx.on('agent/pre-step', (agent, info) => {
          if (info.turn !== 2) return
          const surface = agent.session.surface()
          agent.session.append(
            'context/message',
            {
              content: [{ type: 'text', text: 'summary of turn 1' }],
              source: { kind: 'plugin', name: 'compactor' },
            },
            { kind: 'replace', fromSeq: surface[0].seq, toSeq: surface[1].seq },
          )
        })
      },
    })
    await t.agent.send(user('first'))
    await t.agent.send(user('second'))
    const msgs = t.model.requests[1].messages
    expect(JSON.stringify(msgs[0])).toContain('summary of turn 1')
    expect(JSON.stringify(msgs)).not.toContain('"first"')
    await t.dispose()
  })

  test('AL-15 a listener raising temperature changes the request and logs a config delta', async () => {
    const t = await createTestAgent({
      script: [text('a'), text('b')],
      setup: (ctx) => {
        ctx.on('agent/request', async (_agent, info, _config, next) => {
          const base = await next()
          return info.step === 1 && _agent.session.events().some((e) => e.type === 'turn/end')
            ? { ...base, temperature: 0.9 }
            : base
        })
      },
    })
    await t.agent.send(user('1'))
    await t.agent.send(user('2'))
    expect(t.model.requests[0].config.temperature).toBeUndefined()
    expect(t.model.requests[1].config.temperature).toBe(0.9)
    const delta = t.events().find((e) => e.type === 'request/header-delta')
    expect(delta?.data).toMatchObject({ config: { temperature: 0.9 } })
    await t.dispose()
  })

  test('AL-16 continue{reason} then stop: two steps in one turn, reason as steering, continuations 0 then 1', async () => {
    const counts: number[] = []
    const t = await createTestAgent({
      script: [text('first'), text('second')],
      setup: (ctx) => {
        ctx.on('agent/turn-continuation', async (_a, info, next) => {
          counts.push(info.continuations)
          return info.continuations === 0 ? { action: 'continue', reason: 'check your work' } : next()
        })
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(counts).toEqual([0, 1])
    expect(t.events().filter((e) => e.type === 'turn/start')).toHaveLength(1)
    const steering = t.events().find((e) => e.type === 'steering/message')
    expect(steering?.data).toMatchObject({ source: { kind: 'plugin', name: 'agent/turn-continuation' } })
    expect(textOf(steering!)).toBe('check your work')
    await t.dispose()
  })

  test('AL-16 continue without a reason appends "Continue."; an always-continue listener ends at MAX_STEPS', async () => {
    const t = await createTestAgent({
      config: { agent: { maxStepsPerTurn: 3 } },
      script: [text('1'), text('2'), text('3')],
      setup: (ctx) => {
        ctx.on('agent/turn-continuation', async () => ({ action: 'continue' }))
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'MAX_STEPS' })
    const steering = t.events().filter((e) => e.type === 'steering/message')
    expect(steering.map(textOf)).toEqual(['Continue.', 'Continue.'])
    expect(steering[0].data).toMatchObject({ source: { kind: 'plugin', name: 'agent/turn-continuation' } })
    expect(JSON.stringify(t.model.requests[1].messages)).toContain('agent/turn-continuation')
    await t.dispose()
  })

  test('AL-18 a throwing pre-step listener ends turn 1 with PLUGIN_ERROR naming the seam; turn 2 completes', async () => {
    let fail = true
    const t = await createTestAgent({
      script: [text('ok')],
      setup: (ctx) => {
        ctx.on('agent/pre-step', () => {
          if (fail) {
            fail = false
            throw new Error('boom')
          }
        })
      },
    })
    const o1 = await t.agent.send(user('1'))
    expect(o1.reason).toMatchObject({ kind: 'error', code: 'PLUGIN_ERROR' })
    expect((o1.reason as { message: string }).message).toMatch(/agent\/pre-step.*boom/)
    const o2 = await t.agent.send(user('2'))
    expect(o2.reason).toEqual({ kind: 'completed' })
    await t.dispose()
  })

  test('AL-18 a throwing emit listener is caught and reported, never affecting the turn', async () => {
    const faults: string[] = []
    const t = await createTestAgent({
      script: [text('ok')],
      setup: (ctx) => {
        ctx.on('agent/status', () => {
          throw new Error('reporter broke')
        })
        ctx.on('kernel/listener-fault', (f) => faults.push(`${f.seam}: ${(f.error as Error).message}`))
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(faults).toContain('agent/status: reporter broke')
    await t.dispose()
  })

  test('AL-18 a throwing llm/stream listener ends the turn PLUGIN_ERROR', async () => {
    const t = await createTestAgent({
      script: [text('never used')],
      setup: (ctx) => {
        ctx.on('llm/stream', () => {
          throw new Error('proxy down')
        })
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toMatchObject({ kind: 'error', code: 'PLUGIN_ERROR' })
    expect((outcome.reason as { message: string }).message).toMatch(/llm\/stream/)
    await t.dispose()
  })
})
