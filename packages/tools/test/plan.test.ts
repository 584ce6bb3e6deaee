// The dry run before an ask (docs/decisions/0300-approval-shows-the-change.md): a tool's `plan` runs only
// when a call is asked about, before the question; `fail` ends the call with the tool's own error and
// nobody is asked (no `approval/requested` logged); `proceed` hands the preview to the approver, bounded
// by `approvalPreviewMaxChars`; a plan that throws costs only the preview, with a warning.
import { describe, expect, test } from 'vitest'
import { defineTool, type PreToolDecision, type ToolPlan, ToolFailure } from '../src/index.ts'
import { mountApprover } from '../src/testing/index.ts'
import { agentWith, call, captureLogs, createToolsContext, eventsOf, newSession } from './support.ts'

function planningTool(plan: (args: { what: string }) => Promise<ToolPlan>, ran: string[]) {
  return defineTool({
    name: 'change',
    description: 'changes something',
    access: 'write',
    parameters: { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] },
    execute: ({ what }) => {
      ran.push(what)
      return `changed ${what}`
    },
    plan,
  })
}

const HUNK = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] }

async function asking(plan: (args: { what: string }) => Promise<ToolPlan>, config = {}) {
  const ctx = await createToolsContext(config)
  const ran: string[] = []
  const planned: string[] = []
  ctx.tools.register(
    planningTool(async (args) => {
      planned.push(args.what)
      return plan(args)
    }, ran),
  )
  ctx.on(
    'tools/pre-execute',
    (exec): PreToolDecision =>
      (exec.arguments as { what: string }).what.startsWith('free')
        ? { action: 'allow' }
        : { action: 'ask', reason: 'it writes' },
  )
  const requests = await mountApprover(ctx, { action: 'allow', by: 'user' })
  return { ctx, ran, planned, requests }
}

describe('tools pipeline: the dry run before an ask', () => {
  test("fail: the tool's own error, no question, nothing logged as asked, the body never runs", async () => {
    const { ctx, ran, requests } = await asking(async () => ({
      action: 'fail',
      code: 'FS_NOT_OBSERVED',
      message: 'x has not been read yet.',
    }))
    const session = newSession()
    const result = await ctx.tools.execute(call('change', { what: 'x' }, { agent: agentWith(session) }))
    expect([result.error?.code, result.content]).toEqual([
      'FS_NOT_OBSERVED',
      [{ type: 'text', text: 'x has not been read yet.' }],
    ])
    expect(requests).toEqual([])
    expect(ran).toEqual([])
    expect(eventsOf(session).map((e) => e.type)).not.toContain('approval/requested')
  })

  test('a thrown ToolFailure is the same as fail', async () => {
    const { ctx, requests } = await asking(async () => {
      throw new ToolFailure('NO_MATCH', 'not there')
    })
    const result = await ctx.tools.execute(call('change', { what: 'x' }))
    expect(result.error?.code).toBe('NO_MATCH')
    expect(requests).toEqual([])
  })

  test('proceed: the approver gets the preview; an allowed call is not planned at all', async () => {
    const { ctx, ran, planned, requests } = await asking(async () => ({
      action: 'proceed',
      preview: [{ kind: 'diff', path: 'f', hunks: [HUNK] }],
    }))
    expect((await ctx.tools.execute(call('change', { what: 'x' }))).isError).toBe(false)
    expect(requests[0].preview).toEqual([{ kind: 'diff', path: 'f', hunks: [HUNK] }])
    expect((await ctx.tools.execute(call('change', { what: 'free' }))).isError).toBe(false)
    expect([planned, ran]).toEqual([['x'], ['x', 'free']])
  })

  test('a plan that throws something else: asked without a preview, and a warning says why', async () => {
    const { ctx, ran, requests } = await asking(async () => {
      throw new Error('bug in the plan')
    })
    const logs = captureLogs(ctx)
    expect((await ctx.tools.execute(call('change', { what: 'x' }))).isError).toBe(false)
    expect(requests).toHaveLength(1)
    expect(requests[0].preview).toBeUndefined()
    expect(ran).toEqual(['x'])
    expect(logs.some((l) => l.type === 'warn' && l.text.includes('bug in the plan'))).toBe(true)
  })

  test('the preview is cut at approvalPreviewMaxChars, whole lines, with a note of what is left out', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `+line ${i}`)
    const { ctx, requests } = await asking(
      async () => ({
        action: 'proceed',
        preview: [{ kind: 'diff', path: 'f', hunks: [{ ...HUNK, newLines: 10, lines }] }],
      }),
      { approvalPreviewMaxChars: 30 },
    )
    await ctx.tools.execute(call('change', { what: 'x' }))
    expect(requests[0].preview).toEqual([
      { kind: 'diff', path: 'f', hunks: [{ ...HUNK, newLines: 10, lines: lines.slice(0, 3) }] },
      {
        kind: 'text',
        text: '… 7 more lines of the change not shown (plugins.tools.approvalPreviewMaxChars is 30).',
      },
    ])
  })

  test('defineTool refuses a plan that is not a function', () => {
    expect(() =>
      defineTool({
        name: 'bad',
        description: '',
        parameters: { type: 'object', properties: {} },
        execute: () => '',
        plan: 'soon' as unknown as () => Promise<ToolPlan>,
      }),
    ).toThrow(/plan must be a function when given/)
  })
})
