import type { Context } from 'cordis'
import { describe, expect, test } from 'vitest'
import { type ApprovalAnswer, defineTool, type ToolCallRequest, type ToolExecution } from '../src/index.ts'
import { mountApprover } from '../src/testing/index.ts'
import { agentWith, call, createToolsContext, eventsOf, newSession } from './support.ts'

/** A tool that records the arguments its body ran with. */
function recordingTool(ran: unknown[]) {
  return defineTool({
    name: 'run',
    description: 'runs a command',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', minLength: 1 }, timeout: { type: 'integer', default: 10 } },
      required: ['command'],
    },
    execute: (args) => {
      ran.push(args)
      return `ran ${args.command}`
    },
  })
}

async function setup() {
  const ctx = await createToolsContext()
  const ran: unknown[] = []
  ctx.tools.register(recordingTool(ran))
  const session = newSession()
  const agent = agentWith(session)
  const exec = (args: unknown, extra: Partial<ToolCallRequest> = {}) => call('run', args, { agent, ...extra })
  return { ctx, ran, session, agent, exec }
}

const ask = (ctx: Context, reason?: string) =>
  ctx.on('tools/pre-execute', () => ({ action: 'ask', ...(reason !== undefined && { reason }) }))

describe('TL-5 tools/pre-execute', () => {
  test('TL-5 default allow runs the body with validated, default-filled arguments', async () => {
    const { ctx, ran, exec } = await setup()
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r).toMatchObject({ isError: false, content: [{ type: 'text', text: 'ran ls' }] })
    expect(ran).toEqual([{ command: 'ls', timeout: 10 }])
  })

  test('TL-5 deny yields DENIED with the reason as content; the body and later seams do not run', async () => {
    const { ctx, ran, exec } = await setup()
    const later: string[] = []
    ctx.on('tools/pre-execute', () => ({ action: 'deny', reason: 'no commands today' }))
    ctx.on('tools/execute', (_e, next) => {
      later.push('execute')
      return next()
    })
    ctx.on('tools/post-execute', (_e, _r, next) => {
      later.push('post')
      return next()
    })
    const r = await ctx.tools.execute(exec({ command: 'rm -rf /' }))
    expect(r).toMatchObject({
      isError: true,
      error: { code: 'DENIED' },
      content: [{ type: 'text', text: 'no commands today' }],
    })
    expect(ran).toEqual([])
    expect(later).toEqual([])
  })

  test('TL-5 a listener sees deep-frozen validated arguments', async () => {
    const { ctx, exec } = await setup()
    let seen: ToolExecution | undefined
    ctx.on('tools/pre-execute', (e, next) => {
      seen = e
      return next()
    })
    await ctx.tools.execute(exec({ command: 'ls' }))
    expect(seen?.arguments).toEqual({ command: 'ls', timeout: 10 })
    expect(Object.isFrozen(seen)).toBe(true)
    expect(Object.isFrozen(seen?.arguments)).toBe(true)
    expect(() => {
      ;(seen?.arguments as { command: string }).command = 'changed'
    }).toThrow(TypeError)
  })

  test('TL-5 the first listener that returns without next() decides (short-circuit)', async () => {
    const { ctx, ran, exec } = await setup()
    const order: string[] = []
    ctx.on('tools/pre-execute', (_e, next) => {
      order.push('outer')
      return next()
    })
    ctx.on('tools/pre-execute', () => {
      order.push('decider')
      return { action: 'deny', reason: 'inner says no' }
    })
    ctx.on('tools/pre-execute', () => {
      order.push('never')
      return { action: 'allow' }
    })
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.error?.code).toBe('DENIED')
    expect(order).toEqual(['outer', 'decider'])
    expect(ran).toEqual([])
  })

  test('TL-5 TL-35 ask answered allow runs the body; the approver gets agent, exec and reason', async () => {
    const { ctx, ran, session, agent, exec } = await setup()
    ask(ctx, 'writes outside the workspace')
    const requests = await mountApprover(ctx, () => ({ action: 'allow', by: 'user', scope: 'once' }))
    const e = exec({ command: 'touch /x' })
    const r = await ctx.tools.execute(e)
    expect(r.isError).toBe(false)
    expect(ran).toHaveLength(1)
    expect(requests).toHaveLength(1)
    expect(requests[0].agent).toBe(agent)
    expect(requests[0].reason).toBe('writes outside the workspace')
    expect(requests[0].exec.arguments).toEqual({ command: 'touch /x', timeout: 10 })
    expect(eventsOf(session)).toEqual([
      { type: 'approval/requested', data: { callId: e.callId, reason: 'writes outside the workspace' } },
      { type: 'approval/resolved', data: { callId: e.callId, decision: 'allow', by: 'user', scope: 'once' } },
    ])
  })

  test('TL-5 TL-35 ask answered deny yields DENIED with the approver reason and no body', async () => {
    const { ctx, ran, session, exec } = await setup()
    ask(ctx)
    await mountApprover(ctx, () => ({
      action: 'deny',
      by: 'rule',
      reason: 'rule deny-rm matched',
      scope: 'session',
    }))
    const e = exec({ command: 'rm x' })
    const r = await ctx.tools.execute(e)
    expect(r).toMatchObject({
      isError: true,
      error: { code: 'DENIED' },
      content: [{ type: 'text', text: 'rule deny-rm matched' }],
    })
    expect(ran).toEqual([])
    expect(eventsOf(session)).toEqual([
      { type: 'approval/requested', data: { callId: e.callId } },
      {
        type: 'approval/resolved',
        data: { callId: e.callId, decision: 'deny', by: 'rule', scope: 'session' },
      },
    ])
  })

  test('TL-5 TL-35 ask without an approval service degrades to deny saying no approver was available', async () => {
    const { ctx, ran, session, exec } = await setup()
    ask(ctx, 'needs a human')
    const e = exec({ command: 'ls' })
    const r = await ctx.tools.execute(e)
    expect(r.error?.code).toBe('DENIED')
    expect(r.content[0].text).toBe(
      'No approver was available to allow the call to "run" (asked because: needs a human), so it was denied.',
    )
    expect(ran).toEqual([])
    expect(eventsOf(session)).toEqual([
      { type: 'approval/requested', data: { callId: e.callId, reason: 'needs a human' } },
      { type: 'approval/resolved', data: { callId: e.callId, decision: 'deny', by: 'none' } },
    ])
  })

  test('TL-5 TL-35 an abort while asking yields ABORTED; the approver sees the abort', async () => {
    const { ctx, ran, session, exec } = await setup()
    ask(ctx)
    const { promise: asked, resolve: onAsked } = Promise.withResolvers<AbortSignal>()
    await mountApprover(ctx, (req) => {
      onAsked(req.signal)
      return new Promise<ApprovalAnswer>(() => {})
    })
    const controller = new AbortController()
    const e = exec({ command: 'ls' }, { signal: controller.signal })
    const pending = ctx.tools.execute(e)
    const approverSignal = await asked
    controller.abort()
    const r = await pending
    expect(r.error?.code).toBe('ABORTED')
    expect(approverSignal.aborted).toBe(true)
    expect(ran).toEqual([])
    expect(eventsOf(session)).toEqual([
      { type: 'approval/requested', data: { callId: e.callId } },
      { type: 'approval/resolved', data: { callId: e.callId, decision: 'deny', by: 'none' } },
    ])
  })

  test('TL-5 the body learns who approved an asked call (call.approval); a plain allow has none', async () => {
    const ctx = await createToolsContext()
    const seen: Array<string | undefined> = []
    ctx.tools.register(
      defineTool({
        name: 'scoped',
        description: '',
        parameters: { type: 'object', properties: { ask: { type: 'boolean' } }, required: ['ask'] },
        execute: (_args, callCtx) => {
          seen.push(callCtx.approval)
          return 'ok'
        },
      }),
    )
    ctx.on('tools/pre-execute', (e, next) =>
      (e.arguments as { ask: boolean }).ask ? { action: 'ask' } : next(),
    )
    let by: 'user' | 'rule' = 'user'
    await mountApprover(ctx, () => ({ action: 'allow', by }))
    await ctx.tools.execute(call('scoped', { ask: true }))
    by = 'rule'
    await ctx.tools.execute(call('scoped', { ask: true }))
    await ctx.tools.execute(call('scoped', { ask: false }))
    expect(seen).toEqual(['user', 'rule', undefined])
  })

  test('TL-5 a throwing approver fails the call closed as PLUGIN_ERROR naming its plugin', async () => {
    const { ctx, ran, exec } = await setup()
    ask(ctx)
    await mountApprover(ctx, () => {
      throw new Error('tty gone')
    })
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(r.content[0].text).toBe('approval service of plugin "approver" failed: tty gone')
    expect(ran).toEqual([])
  })

  test('TL-5 a malformed approval answer fails closed', async () => {
    const { ctx, ran, exec } = await setup()
    ask(ctx)
    await mountApprover(ctx, () => ({ action: 'maybe' }) as unknown as ApprovalAnswer)
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(ran).toEqual([])
  })

  test('TL-5 additionalContext from a deny is collected on the result', async () => {
    const { ctx, exec } = await setup()
    const note = { content: 'policy note', source: { kind: 'plugin', name: 'policy' } } as const
    ctx.on('tools/pre-execute', () => ({ action: 'deny', reason: 'no', additionalContext: [note] }))
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.additionalContext).toEqual([note])
  })
})

describe('TL-32 argument rewrite', () => {
  test('TL-32 an allow rewrite changes what runs and is logged with the rewriting plugin before the body', async () => {
    const { ctx, ran, session, exec } = await setup()
    await ctx.plugin({
      name: 'safer-commands',
      apply: (inner: Context) =>
        inner.on('tools/pre-execute', (e) => ({
          action: 'allow',
          arguments: { command: `${(e.arguments as { command: string }).command} --dry-run` },
        })),
    })
    let loggedBeforeBody = false
    ctx.on('tools/execute', (_e, next) => {
      loggedBeforeBody = session.events().some((ev) => ev.type === 'tool/arguments-rewritten')
      return next()
    })
    const e = exec({ command: 'deploy' })
    const r = await ctx.tools.execute(e)
    expect(r.content[0].text).toBe('ran deploy --dry-run')
    // Defaults are filled into the rewrite as well.
    expect(ran).toEqual([{ command: 'deploy --dry-run', timeout: 10 }])
    expect(loggedBeforeBody).toBe(true)
    expect(eventsOf(session)).toEqual([
      {
        type: 'tool/arguments-rewritten',
        data: {
          callId: e.callId,
          arguments: { command: 'deploy --dry-run', timeout: 10 },
          by: 'safer-commands',
        },
      },
    ])
  })

  test('TL-32 an invalid rewrite is refused as INVALID_ARGS naming the plugin; nothing runs or is logged', async () => {
    const { ctx, ran, session, exec } = await setup()
    await ctx.plugin({
      name: 'sloppy-rewriter',
      apply: (inner: Context) =>
        inner.on('tools/pre-execute', () => ({ action: 'allow', arguments: { cmd: 'ls' } })),
    })
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.error?.code).toBe('INVALID_ARGS')
    expect(r.content[0].text).toBe(
      'Arguments rewritten by plugin "sloppy-rewriter" are invalid for tool "run":\n/command: required\n/: unexpected property "cmd"',
    )
    expect(ran).toEqual([])
    expect(eventsOf(session)).toEqual([])
  })

  test('TL-32 a rewrite that is not lossless JSON is refused', async () => {
    const { ctx, ran, exec } = await setup()
    ctx.on('tools/pre-execute', () => ({ action: 'allow', arguments: { command: 'ls', timeout: 10n } }))
    const r = await ctx.tools.execute(exec({ command: 'ls' }))
    expect(r.error?.code).toBe('INVALID_ARGS')
    expect(r.content[0].text).toMatch(
      /^Arguments rewritten by plugin "root" are invalid for tool "run":\n\/timeout: /,
    )
    expect(ran).toEqual([])
  })

  test('TL-32 TL-35 an ask rewrite is logged before the approval and the approver sees the new arguments', async () => {
    const { ctx, ran, session, exec } = await setup()
    await ctx.plugin({
      name: 'ask-rewriter',
      apply: (inner: Context) =>
        inner.on('tools/pre-execute', () => ({
          action: 'ask',
          reason: 'check',
          arguments: { command: 'echo safe' },
        })),
    })
    const requests = await mountApprover(ctx, () => ({ action: 'allow', by: 'user' }))
    const e = exec({ command: 'danger' })
    await ctx.tools.execute(e)
    expect(requests[0].exec.arguments).toEqual({ command: 'echo safe', timeout: 10 })
    expect(ran).toEqual([{ command: 'echo safe', timeout: 10 }])
    expect(eventsOf(session).map((ev) => ev.type)).toEqual([
      'tool/arguments-rewritten',
      'approval/requested',
      'approval/resolved',
    ])
  })

  test('TL-32 the rewrite is attributed to the plugin whose listener returned it, through pass-through listeners', async () => {
    const { ctx, session, exec } = await setup()
    await ctx.plugin({
      name: 'observer',
      apply: (inner: Context) => inner.on('tools/pre-execute', (_e, next) => next()),
    })
    await ctx.plugin({
      name: 'rewriter',
      apply: (inner: Context) =>
        inner.on('tools/pre-execute', () => ({ action: 'allow', arguments: { command: 'b' } })),
    })
    await ctx.tools.execute(exec({ command: 'a' }))
    expect(eventsOf(session)[0].data).toMatchObject({ by: 'rewriter' })
  })
})
