// The seam contract: one listener on every declared seam, one scripted session, and the order in
// which they fire compared with the spec's order. A seam nobody can reach would show up missing.
import { expect, test } from 'vitest'
import type { Agent } from '@tack/agent'
import { createTestAgent, error, text, toolCalls } from '@tack/agent/testing'
import { LlmPlugin } from '@tack/llm'
import { SubagentPlugin } from '@tack/subagent'
import type { Context } from 'cordis'
import { user } from './helpers.ts'

const SEAMS = [
  'agent/created',
  'agent/session-start',
  'agent/status',
  'agent/prompt-submit',
  'agent/session-prefix',
  'agent/pre-step',
  'agent/request',
  'llm/stream',
  'llm/retry',
  'tools/call',
  'tools/pre-execute',
  'tools/execute',
  'tools/post-execute',
  'agent/turn-continuation',
  'subagent/start',
  'subagent/end',
  'agent/disposed',
  'session/event',
  'session/flush',
  'kernel/listener-fault',
] as const

test('AL-7 AL-17 every declared seam fires, in the spec order, in one scripted session', async () => {
  const trace: string[] = []
  let parent: Agent | undefined
  const who = (a: unknown) => (a === parent || parent === undefined ? 'P' : 'C')
  const record = (ctx: Context) => {
    // biome-ignore lint/suspicious/noExplicitAny: one recorder for every seam signature
    const on = ctx.on as (name: string, fn: (...args: any[]) => any) => void
    for (const seam of SEAMS) {
      on(seam, (...args: unknown[]) => {
        const next = args.at(-1)
        switch (seam) {
          case 'session/event':
          case 'session/flush':
          case 'kernel/listener-fault':
          case 'llm/retry':
          case 'llm/stream':
          case 'tools/call':
          case 'tools/pre-execute':
          case 'tools/execute':
          case 'tools/post-execute':
            trace.push(seam)
            break
          case 'agent/status':
            trace.push(`${seam}:${who(args[0])}:${args[1]}`)
            break
          case 'subagent/start':
          case 'subagent/end':
            trace.push(`${seam}:${who(args[0])}`)
            break
          default:
            trace.push(`${seam}:${who(args[0])}`)
        }
        if (seam === 'agent/created' && who(args[0]) === 'C') throw new Error('a reporter that breaks')
        return typeof next === 'function' ? (next as () => unknown)() : undefined
      })
    }
  }
  const t = await createTestAgent({
    plugins: [
      { plugin: SubagentPlugin, config: {} },
      { plugin: LlmPlugin, config: { retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 } } },
    ],
    script: [
      error('busy', { status: 429 }),
      toolCalls([{ name: 'subagent', args: { description: 'child', prompt: 'do the sub task' } }]),
      text('child done'),
      text('parent done'),
    ],
    setup: (ctx) => {
      record(ctx)
    },
  })
  parent = t.agent
  // the scripted adapter behind @tack/llm's retry policy, as real providers are registered
  t.ctx.llmProviders.register(['scripted/test'], { stream: (r, s) => t.model.adapter.stream(r, s) })
  const outcome = await t.agent.send(user('delegate it'))
  expect(outcome.reason).toEqual({ kind: 'completed' })
  await t.dispose()

  // every seam fired at least once
  for (const seam of SEAMS)
    expect(
      trace.some((e) => e.startsWith(seam)),
      seam,
    ).toBe(true)

  // the order, with the log and flush notifications collapsed out
  const order = trace.filter((e) => e !== 'session/event' && e !== 'session/flush')
  expect(order).toEqual([
    'agent/created:P',
    'agent/session-start:P',
    'agent/status:P:running',
    'agent/prompt-submit:P',
    'agent/session-prefix:P',
    'agent/pre-step:P',
    'agent/request:P',
    'llm/stream',
    'llm/retry',
    'tools/call',
    'tools/pre-execute',
    'tools/execute',
    'agent/created:C',
    'kernel/listener-fault',
    'agent/session-start:C',
    'subagent/start:P',
    'agent/status:C:running',
    'agent/prompt-submit:C',
    'agent/session-prefix:C',
    'agent/pre-step:C',
    'agent/request:C',
    'llm/stream',
    'agent/turn-continuation:C',
    'agent/status:C:idle',
    'subagent/end:P',
    'agent/status:C:disposed',
    'agent/disposed:C',
    'tools/post-execute',
    'agent/pre-step:P',
    'agent/request:P',
    'llm/stream',
    'agent/turn-continuation:P',
    'agent/status:P:idle',
    'agent/status:P:disposed',
    'agent/disposed:P',
  ])

  // durability points: a flush sits between each request header and its model call
  const withFlush = trace.filter((e) => e === 'session/flush' || e === 'llm/stream')
  expect(withFlush.slice(0, 2)).toEqual(['session/flush', 'llm/stream'])
})
