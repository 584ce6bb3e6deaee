// A call that asks to leave the OS sandbox (a tool's `escalation` declaration,
// docs/decisions/0315-leaving-the-sandbox.md): never a pass; asked with the reason shown, allowed only
// by a person or an allow rule naming a command, denied headless and in read-only mode; a hook cannot
// add the request; a faulty declaration fails closed.
import { defineTool, registerTool } from '@tack/tools'
import { stubAgent } from '@tack/tools/testing'
import { memorySession } from '@tack/session/testing'
import { describe, expect, it } from 'vitest'
import { decide } from '../src/decide.ts'
import type { CallFacts } from '../src/facts.ts'
import { kernel, run, workspace } from './support.ts'

const facts: CallFacts = {
  tool: 'bash',
  access: 'execute',
  command: 'git commit -m x',
  paths: [],
  root: { lexical: '/w', real: '/w' },
  escalation: { justification: 'the sandbox keeps .git read-only' },
}
const none = { allow: [], deny: [] }

describe('the escalation verdict', () => {
  it('asks with the command and the justification when a person can answer', () => {
    for (const mode of ['workspace-write', 'ask'] as const)
      expect(decide(facts, mode, none, true)).toEqual({
        kind: 'ask',
        reason:
          'bash asks to run `git commit -m x` outside the sandbox (reason given: the sandbox keeps .git read-only)',
      })
  })

  it('headless: denied, naming the rule and the flag that would grant it', () => {
    const verdict = decide(facts, 'workspace-write', none, false)
    expect(verdict.kind).toBe('deny')
    expect(verdict).toMatchObject({ reason: expect.stringContaining("--allow 'bash:git commit -m x'") })
    expect(verdict).toMatchObject({ reason: expect.stringContaining('--sandbox-writable PATH') })
  })

  it('an allow rule that names the command grants it; one without a command does not', () => {
    const named = { allow: [{ tool: 'bash', command: 'git commit*' }], deny: [] }
    expect(decide(facts, 'workspace-write', named, false)).toMatchObject({ kind: 'allow' })
    const bare = { allow: [{ tool: 'bash' }], deny: [] }
    expect(decide(facts, 'workspace-write', bare, false).kind).toBe('deny')
    expect(decide(facts, 'workspace-write', bare, true).kind).toBe('ask')
  })

  it('a deny rule and read-only mode deny it, even with a person and a rule; yolo allows it', () => {
    const deny = { allow: [], deny: [{ tool: 'bash', command: 'git commit*' }] }
    expect(decide(facts, 'workspace-write', deny, true).kind).toBe('deny')
    const named = { allow: [{ tool: 'bash', command: 'git commit*' }], deny: [] }
    expect(decide(facts, 'read-only', named, true)).toMatchObject({
      kind: 'deny',
      reason: expect.stringContaining('Read-only mode does not allow leaving the sandbox'),
    })
    expect(decide(facts, 'yolo', none, false).kind).toBe('allow')
  })
})

/** A kernel whose `shell` tool declares escalation as bash does, recording what ran. */
async function escalatingKernel(options: Parameters<typeof kernel>[0] = {}) {
  const k = await kernel(options)
  const ran: { command: string; escalated: boolean; approval?: string }[] = []
  registerTool(
    k.ctx,
    defineTool({
      name: 'shell',
      access: 'execute',
      description: 'Records the command and whether it left the sandbox.',
      parameters: {
        type: 'object',
        properties: { command: { type: 'string' }, escalate: { type: 'boolean' } },
        required: ['command'],
      },
      escalation: (args) => (args.escalate === true ? { justification: 'needs .git' } : undefined),
      execute: (args, call) => {
        ran.push({ command: args.command, escalated: args.escalate === true, approval: call.approval })
        return 'ok'
      },
    }),
  )
  return { k, ran }
}

describe('through the pipeline', () => {
  it('a hook that rewrites a call into an escalated one is denied; the body never runs', async () => {
    const { cwd } = await workspace()
    const { k, ran } = await escalatingKernel({
      downstream: (ctx) =>
        ctx.on('tools/pre-execute', (exec) => ({
          action: 'allow',
          arguments: { ...(exec.arguments as object), escalate: true },
        })),
    })
    const result = await run(k, 'shell', { command: 'git commit -m x' }, { cwd })
    expect(result).toMatchObject({ isError: true, error: { code: 'DENIED' } })
    expect(ran).toEqual([])
  })

  it("a hook's allow does not answer the ask: the person is still asked", async () => {
    const { cwd } = await workspace()
    const { k, ran } = await escalatingKernel({
      approver: { action: 'allow', by: 'user', scope: 'once' },
      downstream: (ctx) => ctx.on('tools/pre-execute', () => ({ action: 'allow' })),
    })
    const agent = stubAgent(memorySession(cwd), { cwd, options: { permissionMode: 'workspace-write' } })
    await run(k, 'shell', { command: 'git commit -m x', escalate: true }, { cwd, agent })
    expect(k.requests.map((r) => r.reason)).toEqual([
      'shell asks to run `git commit -m x` outside the sandbox (reason given: needs .git)',
    ])
    expect(ran).toEqual([{ command: 'git commit -m x', escalated: true, approval: 'user' }])
  })

  it('a declaration that throws fails closed', async () => {
    const { cwd } = await workspace()
    const k = await kernel()
    registerTool(
      k.ctx,
      defineTool({
        name: 'broken',
        access: 'execute',
        description: 'Its escalation declaration throws.',
        parameters: { type: 'object', properties: {} },
        escalation: () => {
          throw new Error('boom')
        },
        execute: () => 'ran',
      }),
    )
    const result = await run(k, 'broken', {}, { cwd })
    expect(result).toMatchObject({ isError: true, error: { code: 'DENIED' } })
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('escalation declaration') })
  })
})
