import { createTestAgent, error, hang, settlesWithin, text, toolCalls } from '@tack/agent/testing'
import type { Agent, PromptDecision } from '@tack/agent'
import type { SessionEvent } from '@tack/session'
import { expect, test } from 'vitest'
import { SubagentConfig, SubagentPlugin } from '../src/index.ts'

const user = (content: string) => ({ content, source: { kind: 'user' as const } })
const resultOf = (events: readonly SessionEvent[]) =>
  events.find((e) => e.type === 'tool/result') as SessionEvent<'tool/result'>

test('TL-18 the child runs on a new session naming its parent; its final text is the result', async () => {
  let childId = ''
  const t = await createTestAgent({
    plugins: [{ plugin: SubagentPlugin, config: {} }],
    script: [
      toolCalls([{ name: 'subagent', args: { description: 'd', prompt: 'find it' } }]),
      text('found: 42'),
      text('the answer is 42'),
    ],
    setup: (ctx) => {
      ctx.on('subagent/start', (_p, child) => {
        childId = child.session.id
      })
    },
  })
  await t.agent.send(user('delegate'))
  const result = resultOf(t.events())
  expect(result.data.isError).toBe(false)
  expect(result.data.content[0].text).toBe('found: 42')
  expect(result.data.meta).toEqual({ sessionId: childId })
  const child = await t.ctx.sessions.open(childId)
  expect(child.header.parentSession).toBe(t.agent.session.id)
  expect(child.events().find((e) => e.type === 'user/message')?.data).toMatchObject({
    source: { kind: 'user' },
  })
  await t.dispose()
})

test('0011 subagent declares write access and the Claude name Agent', async () => {
  const t = await createTestAgent({ plugins: [{ plugin: SubagentPlugin, config: {} }], script: [] })
  const def = t.ctx.tools.get('subagent')
  expect(def?.access).toBe('write')
  expect(Object.fromEntries(Object.entries(def?.host ?? {}).map(([host, m]) => [host, m?.name]))).toEqual({
    claude: 'Agent',
  })
  await t.dispose()
})

test('TL-18 maxDepth bounds nesting: a child may not start its own child (MAX_DEPTH); default 1, 9 rejected', async () => {
  expect(SubagentConfig.parse({}).maxDepth).toBe(1)
  expect(() => SubagentConfig.parse({ maxDepth: 9 })).toThrow(/maxDepth/)
  let childId = ''
  const t = await createTestAgent({
    setup: (ctx) => {
      ctx.on('subagent/start', (_p, child) => {
        childId ||= child.session.id
      })
    },
    plugins: [{ plugin: SubagentPlugin, config: {} }],
    script: [
      toolCalls([{ name: 'subagent', args: { description: 'outer', prompt: 'go deeper' } }]),
      toolCalls([{ name: 'subagent', args: { description: 'inner', prompt: 'deeper still' } }]),
      text('could not nest'),
      text('done'),
    ],
  })
  await t.agent.send(user('nest'))
  const outer = resultOf(t.events())
  expect(outer.data.isError).toBe(false)
  expect(outer.data.content[0].text).toBe('could not nest')
  const inner = resultOf((await t.ctx.sessions.open(childId)).events())
  expect(inner.data.error?.code).toBe('MAX_DEPTH')
  await t.dispose()
})

test('TL-18 a child turn that fails makes an error result; cancelling the parent cancels the child', async () => {
  const failing = await createTestAgent({
    plugins: [{ plugin: SubagentPlugin, config: {} }],
    script: [
      toolCalls([{ name: 'subagent', args: { description: 'd', prompt: 'x' } }]),
      error('child broke'),
      text('ok'),
    ],
  })
  await failing.agent.send(user('go'))
  const r = resultOf(failing.events())
  expect(r.data.isError).toBe(true)
  expect(r.data.error?.code).toBe('SUBAGENT_FAILED')
  await failing.dispose()

  let childAborted: Promise<void> | undefined
  const t = await createTestAgent({
    plugins: [{ plugin: SubagentPlugin, config: {} }],
    script: [toolCalls([{ name: 'subagent', args: { description: 'd', prompt: 'hang' } }]), hang()],
    setup: (ctx) => {
      ctx.on('subagent/start', (_p, child) => {
        childAborted = new Promise((resolve) => {
          ctx.on('subagent/end', (_pp, c, info) => {
            if (c === child && info.reason.kind === 'aborted') resolve()
          })
        })
        // cancel the parent once the child's model call is under way
        const off = child.session.subscribe((e) => {
          if (e.type === 'step/start') {
            off()
            queueMicrotask(() => t.agent.cancel())
          }
        })
      })
    },
  })
  const outcome = await t.agent.send(user('go'))
  expect(outcome.reason).toEqual({ kind: 'aborted' })
  await childAborted
  await t.dispose()
})

test('AL-23 cancelling the parent while the child is in admission ends both at once; the child never reaches its model', async () => {
  let child: Agent | undefined
  const childSignals: AbortSignal[] = []
  const t = await createTestAgent({
    plugins: [{ plugin: SubagentPlugin, config: {} }],
    script: [toolCalls([{ name: 'subagent', args: { description: 'd', prompt: 'slow gate' } }])],
    setup: (ctx) => {
      ctx.on('subagent/start', (_p, c) => {
        child = c
      })
      // A slow gate for the child only (a SubagentStart chain the first prompt waits for): it answers
      // only once the child's turn is cancelled.
      ctx.on('agent/prompt-submit', (agent, _prompt, next) => {
        const signal = agent.turnSignal
        if (!agent.parent || !signal) return next()
        childSignals.push(signal)
        return new Promise<PromptDecision>((resolve) =>
          signal.addEventListener('abort', () => resolve({ action: 'allow' }), { once: true }),
        )
      })
    },
  })
  const sent = t.agent.send(user('go'))
  while (childSignals.length === 0) await new Promise((r) => setTimeout(r, 5))
  t.agent.cancel()
  expect((await settlesWithin(sent, 1000)).reason).toEqual({ kind: 'aborted' })
  expect(childSignals[0].aborted).toBe(true)
  const childEvents = child!.session.events().map((e) => e.type)
  expect(childEvents).toContain('prompt/blocked')
  expect(childEvents).not.toContain('user/message')
  expect(childEvents).not.toContain('step/start')
  expect(t.model.requests).toHaveLength(1)
  await t.dispose()
})

test('AL-23 a parent cancelled before its child is sent its task: the child runs no turn', async () => {
  let child: Agent | undefined
  const t = await createTestAgent({
    plugins: [{ plugin: SubagentPlugin, config: {} }],
    script: [toolCalls([{ name: 'subagent', args: { description: 'd', prompt: 'x' } }]), text('child ran')],
    setup: (ctx) => {
      ctx.on('subagent/start', (_p, c) => {
        child = c
        t.agent.cancel()
      })
    },
  })
  expect((await settlesWithin(t.agent.send(user('go')), 1000)).reason).toEqual({ kind: 'aborted' })
  expect(child!.session.events().some((e) => e.type === 'turn/start')).toBe(false)
  expect(t.model.requests).toHaveLength(1)
  const result = resultOf(t.events())
  expect(result.data.isError).toBe(true)
  await t.dispose()
})
