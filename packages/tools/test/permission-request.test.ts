// `tools/permission-request` (packages/tools/src/seams.ts; docs/decisions/0170-hook-event-seams.md):
// raised when an `ask` is about to go to `ctx.approval`. `ask` leaves the question to the approver (none:
// denied, as before); `allow` runs the call without asking, `arguments` rewriting it (validated, logged);
// `deny` ends it DENIED. Both answers are logged as `approval/resolved` by `rule`.
import { describe, expect, test } from 'vitest'
import { defineTool, type PermissionAsk, type ToolCallRequest } from '../src/index.ts'
import { mountApprover } from '../src/testing/index.ts'
import { agentWith, call, createToolsContext, eventsOf, newSession } from './support.ts'

async function setup() {
  const ctx = await createToolsContext()
  const ran: unknown[] = []
  ctx.tools.register(
    defineTool({
      name: 'run',
      description: 'runs a command',
      access: 'execute',
      parameters: {
        type: 'object',
        properties: { command: { type: 'string', minLength: 1 } },
        required: ['command'],
      },
      execute: (args) => {
        ran.push(args)
        return `ran ${args.command}`
      },
    }),
  )
  const session = newSession()
  const agent = agentWith(session)
  const exec = (args: unknown, extra: Partial<ToolCallRequest> = {}) => call('run', args, { agent, ...extra })
  ctx.on('tools/pre-execute', () => ({ action: 'ask', reason: 'bash asks' }))
  return { ctx, ran, session, exec }
}

const approvalEvents = (session: ReturnType<typeof newSession>) =>
  eventsOf(session).filter((e) => e.type.startsWith('approval/') || e.type === 'tool/arguments-rewritten')

describe('tools/permission-request', () => {
  test('default ask: the approver is asked as before; the listener sees the access and the reason', async () => {
    const { ctx, ran, exec } = await setup()
    const asks: PermissionAsk[] = []
    ctx.on('tools/permission-request', (e, ask, next) => {
      expect(e.arguments).toEqual({ command: 'ls' })
      asks.push(ask)
      return next()
    })
    const requests = await mountApprover(ctx, { action: 'allow', by: 'user' })
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.isError).toBe(false)
    expect(asks).toEqual([{ access: 'execute', reason: 'bash asks' }])
    expect(requests).toHaveLength(1)
    expect(ran).toHaveLength(1)
  })

  test('allow runs the call without asking the approver, logged by rule', async () => {
    const { ctx, ran, session, exec } = await setup()
    ctx.on('tools/permission-request', () => ({ action: 'allow' }))
    const requests = await mountApprover(ctx, { action: 'deny', by: 'user' })
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.isError).toBe(false)
    expect(requests).toHaveLength(0)
    expect(ran).toEqual([{ command: 'ls' }])
    expect(approvalEvents(session).map((e) => [e.type, (e.data as { by?: string }).by])).toEqual([
      ['approval/requested', undefined],
      ['approval/resolved', 'rule'],
    ])
  })

  test('allow with arguments: the rewrite is validated, logged and run — also with no approver (headless)', async () => {
    const { ctx, ran, session, exec } = await setup()
    ctx.on('tools/permission-request', () => ({ action: 'allow', arguments: { command: 'ls -la' } }))
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.isError).toBe(false)
    expect(ran).toEqual([{ command: 'ls -la' }])
    const rewritten = approvalEvents(session).find((e) => e.type === 'tool/arguments-rewritten')
    expect(rewritten?.data).toMatchObject({ arguments: { command: 'ls -la' } })
  })

  test('an invalid rewrite ends the call INVALID_ARGS without running it', async () => {
    const { ctx, ran, exec } = await setup()
    ctx.on('tools/permission-request', () => ({ action: 'allow', arguments: { command: '' } }))
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS' } })
    expect(ran).toHaveLength(0)
  })

  test('deny ends the call DENIED with the reason for the model; the approver is not asked', async () => {
    const { ctx, ran, session, exec } = await setup()
    ctx.on('tools/permission-request', () => ({ action: 'deny', reason: 'not on Fridays' }))
    const requests = await mountApprover(ctx, { action: 'allow', by: 'user' })
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r).toMatchObject({ isError: true, error: { code: 'DENIED' } })
    expect(r.content[0]).toEqual({ type: 'text', text: 'not on Fridays' })
    expect(requests).toHaveLength(0)
    expect(ran).toHaveLength(0)
    expect(approvalEvents(session).at(-1)?.data).toMatchObject({ decision: 'deny', by: 'rule' })
  })

  test('ask with no approver is denied as before', async () => {
    const { ctx, ran, exec } = await setup()
    ctx.on('tools/permission-request', (_e, _a, next) => next())
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r).toMatchObject({ isError: true, error: { code: 'DENIED' } })
    expect(ran).toHaveLength(0)
  })

  test('a throwing or malformed listener ends the call PLUGIN_ERROR (fails closed)', async () => {
    const { ctx, ran, exec } = await setup()
    let mode: 'throw' | 'bad' = 'throw'
    ctx.on('tools/permission-request', () => {
      if (mode === 'throw') throw new Error('broken')
      return { action: 'maybe' } as never
    })
    expect(await ctx.tools.execute(exec({ command: 'ls' }))).toMatchObject({
      error: { code: 'PLUGIN_ERROR' },
    })
    mode = 'bad'
    expect(await ctx.tools.execute(exec({ command: 'ls' }))).toMatchObject({
      error: { code: 'PLUGIN_ERROR' },
    })
    expect(ran).toHaveLength(0)
  })
})

describe('an approver that remembers session answers', () => {
  test('its remembered answer settles the ask before the seam: no permission request, logged by rule', async () => {
    const { ctx, ran, session, exec } = await setup()
    const seen: unknown[] = []
    ctx.on('tools/permission-request', (e, _ask, next) => {
      seen.push(e.arguments)
      return next()
    })
    const requests: unknown[] = []
    await ctx.plugin({
      name: 'remembering-approver',
      apply: (inner: typeof ctx) =>
        void inner.provide('approval', {
          request: async (req) => {
            requests.push(req.exec.arguments)
            return { action: 'allow', by: 'user', scope: 'once' }
          },
          remembered: (req) =>
            (req.exec.arguments as { command: string }).command === 'ls'
              ? { action: 'allow', by: 'rule', scope: 'session' }
              : undefined,
        }),
    })
    expect((await ctx.tools.execute(exec({ command: 'ls' }))).isError).toBe(false)
    expect((await ctx.tools.execute(exec({ command: 'pwd' }))).isError).toBe(false)
    expect(ran).toHaveLength(2)
    // Only the call no rule answered raised the seam and reached the approver.
    expect(seen).toEqual([{ command: 'pwd' }])
    expect(requests).toEqual([{ command: 'pwd' }])
    expect(approvalEvents(session).map((e) => [e.type, e.data])).toEqual([
      ['approval/requested', expect.objectContaining({ reason: 'bash asks' })],
      ['approval/resolved', expect.objectContaining({ decision: 'allow', by: 'rule', scope: 'session' })],
      ['approval/requested', expect.objectContaining({ reason: 'bash asks' })],
      ['approval/resolved', expect.objectContaining({ decision: 'allow', by: 'user', scope: 'once' })],
    ])
  })
})
