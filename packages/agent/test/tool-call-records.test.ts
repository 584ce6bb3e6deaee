// The tools pipeline's records as the real agent loop writes them around a call: only the model is
// scripted; the loop, the session, the registry and the tools are real.
import type { ApprovalAnswer } from '@tack/tools'
import { createTestAgent, text, toolCalls } from '../src/testing/index.ts'
import type { Context } from 'cordis'
import { describe, expect, test } from 'vitest'
import { registerTool } from '@tack/tools'
import { echoTool, mountApprover } from '@tack/tools/testing'

const user = (content: string) => ({ content, source: { kind: 'user' } as const })

/** The event types from the first tool/call to its tool/result. */
function around(types: readonly string[]): string[] {
  return types.slice(types.indexOf('tool/call'), types.indexOf('tool/result') + 1)
}

async function agentWith(setup: (ctx: Context) => void | Promise<void>) {
  return createTestAgent({
    script: [toolCalls([{ name: 'echo', args: { text: 'hi' } }]), text('done')],
    setup: async (ctx) => {
      registerTool(ctx, echoTool)
      await setup(ctx)
    },
  })
}

const approver = (answer: ApprovalAnswer) => async (ctx: Context) => {
  await mountApprover(ctx, answer)
}

describe('TL-35 records for every decision path, in the loop', () => {
  test('TL-35 ask allowed: tool/call, approval/requested, approval/resolved, tool/result', async () => {
    const t = await agentWith(async (ctx) => {
      ctx.on('tools/pre-execute', () => ({ action: 'ask', reason: 'check' }))
      await approver({ action: 'allow', by: 'user', scope: 'session' })(ctx)
    })
    await t.agent.send(user('go'))
    expect(around(t.types())).toEqual(['tool/call', 'approval/requested', 'approval/resolved', 'tool/result'])
    const resolved = t.events().find((e) => e.type === 'approval/resolved')
    expect(resolved?.data).toMatchObject({ decision: 'allow', by: 'user', scope: 'session' })
    await t.dispose()
  })

  test('TL-35 ask without an approver: denied by none, and the model sees DENIED', async () => {
    const t = await agentWith((ctx) => {
      ctx.on('tools/pre-execute', () => ({ action: 'ask' }))
    })
    await t.agent.send(user('go'))
    expect(around(t.types())).toEqual(['tool/call', 'approval/requested', 'approval/resolved', 'tool/result'])
    const result = t.events().find((e) => e.type === 'tool/result')
    expect(result?.data).toMatchObject({ isError: true, error: { code: 'DENIED' } })
    await t.dispose()
  })

  test('TL-35 TL-31 an answering tools/call listener: tool/call, tool/answered, tool/result', async () => {
    const t = await agentWith(async (ctx) => {
      await ctx.plugin({
        name: 'cache',
        apply: (inner: Context) => inner.on('tools/call', () => ({ content: 'cached' })),
      })
    })
    await t.agent.send(user('go'))
    expect(around(t.types())).toEqual(['tool/call', 'tool/answered', 'tool/result'])
    expect(t.events().find((e) => e.type === 'tool/answered')?.data).toMatchObject({ by: 'cache' })
    expect(t.events().find((e) => e.type === 'tool/result')?.data).toMatchObject({
      content: [{ type: 'text', text: 'cached' }],
    })
    await t.dispose()
  })

  test('TL-35 TL-32 a rewrite: tool/call, tool/arguments-rewritten, tool/result with the rewritten output', async () => {
    const t = await agentWith(async (ctx) => {
      await ctx.plugin({
        name: 'shouter',
        apply: (inner: Context) =>
          inner.on('tools/pre-execute', () => ({ action: 'allow', arguments: { text: 'HI' } })),
      })
    })
    await t.agent.send(user('go'))
    expect(around(t.types())).toEqual(['tool/call', 'tool/arguments-rewritten', 'tool/result'])
    expect(t.events().find((e) => e.type === 'tool/result')?.data).toMatchObject({
      content: [{ type: 'text', text: 'HI' }],
    })
    await t.dispose()
  })

  test('TL-35 plain allow leaves no decision records', async () => {
    const t = await agentWith(() => {})
    await t.agent.send(user('go'))
    expect(around(t.types())).toEqual(['tool/call', 'tool/result'])
    await t.dispose()
  })
})
