// The tool-moment events beyond PreToolUse/PostToolUse (claude-code-hook-events.md): PostToolUseFailure
// instead of PostToolUse for a call that failed while running, PostToolBatch after one message's calls,
// PermissionRequest before an ask reaches the approver. Real loop, real bash, real hook scripts.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import type { PreToolDecision, ToolExecution } from '@tack/tools'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { bridgeAgent, hook, prompt, recorded, recordTo, tempDir } from './helpers.ts'

/** Every call asks (as `ask` mode's bash does): a listener after the bridge's PreToolUse. */
const askAll = (ctx: Context) => {
  ctx.on('tools/pre-execute', (_exec: ToolExecution, _next: () => Promise<PreToolDecision>) => ({
    action: 'ask' as const,
  }))
}

describe('PostToolUseFailure', () => {
  it('fires instead of PostToolUse for a failing command, with error and is_interrupt; its context reaches the model', async () => {
    const dir = await tempDir()
    const out = join(dir, 'failure.jsonl')
    const post = join(dir, 'post.jsonl')
    const reply = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'check the exit code' },
    })
    const t = await bridgeAgent({
      projectHooks: {
        ...hook('PostToolUseFailure', recordTo(out, `echo '${reply}'`), { matcher: 'Bash' }),
        ...hook('PostToolUse', recordTo(post)),
      },
      script: [toolCalls([{ name: 'bash', args: { command: 'echo oops; exit 3' } }]), text('done')],
    })
    try {
      await t.agent.send(prompt('go'))
      const [p] = await recorded(out)
      expect(p).toMatchObject({
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'Bash',
        tool_input: { command: 'echo oops; exit 3' },
        tool_use_id: 'call_1',
        is_interrupt: false,
        permission_mode: 'default',
      })
      expect(String(p.error)).toContain('oops')
      expect(typeof p.duration_ms).toBe('number')
      expect(await recorded(post)).toEqual([])
      expect(t.requestTexts()[1]).toContain(
        'PostToolUseFailure:Bash hook additional context: check the exit code',
      )
    } finally {
      await t.dispose()
    }
  })

  it('exit 2 becomes a blocking-error context naming the command and its stderr', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('PostToolUseFailure', 'echo "fix it first" >&2; exit 2'),
      script: [toolCalls([{ name: 'bash', args: { command: 'false' } }]), text('done')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(t.requestTexts()[1]).toContain(
        'PostToolUseFailure:Bash hook blocking error from command: [echo "fix it first" >&2; exit 2]: fix it first',
      )
    } finally {
      await t.dispose()
    }
  })
})

describe('PostToolBatch', () => {
  it('fires once per message with every call and the result text the model gets; context follows', async () => {
    const dir = await tempDir()
    const out = join(dir, 'batch.jsonl')
    const reply = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: 'batch noted' },
    })
    const t = await bridgeAgent({
      projectHooks: hook('PostToolBatch', recordTo(out, `echo '${reply}'`)),
      script: [
        toolCalls([
          { name: 'bash', args: { command: 'echo one' } },
          { name: 'bash', args: { command: 'echo two' } },
        ]),
        text('done'),
      ],
    })
    try {
      await t.agent.send(prompt('go'))
      const all = await recorded(out)
      expect(all).toHaveLength(1)
      const calls = all[0].tool_calls as Array<Record<string, unknown>>
      expect(calls.map((c) => [c.tool_name, c.tool_input, c.tool_use_id])).toEqual([
        ['Bash', { command: 'echo one' }, 'call_1'],
        ['Bash', { command: 'echo two' }, 'call_2'],
      ])
      expect(String(calls[0].tool_response)).toContain('one')
      expect(t.requestTexts()[1]).toContain('PostToolBatch hook additional context: batch noted')
    } finally {
      await t.dispose()
    }
  })

  it('exit 2 stops the loop: the turn ends after the batch, with a warning', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('PostToolBatch', 'echo "stop here" >&2; exit 2'),
      script: [toolCalls([{ name: 'bash', args: { command: 'echo one' } }])],
    })
    try {
      expect((await t.agent.send(prompt('go'))).reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(1)
      expect(t.warnings().join('\n')).toContain('a PostToolBatch hook stopped the turn: stop here')
    } finally {
      await t.dispose()
    }
  })
})

describe('PermissionRequest', () => {
  it('fires for an ask with tool_name, tool_input, permission_suggestions and no tool_use_id; no decision → refused headless', async () => {
    const dir = await tempDir()
    const out = join(dir, 'perm.jsonl')
    const t = await bridgeAgent({
      projectHooks: hook('PermissionRequest', recordTo(out), { matcher: 'Bash' }),
      plugins: [askAll],
      script: [
        toolCalls([{ name: 'bash', args: { command: `touch '${join(dir, 'made')}'` } }]),
        text('done'),
      ],
    })
    try {
      await t.agent.send(prompt('go'))
      const [p] = await recorded(out)
      expect(p).toMatchObject({
        hook_event_name: 'PermissionRequest',
        tool_name: 'Bash',
        tool_input: { command: `touch '${join(dir, 'made')}'` },
        permission_suggestions: [],
      })
      expect('tool_use_id' in p).toBe(false)
      const result = t.of('tool/result')[0].data
      expect(result.error?.code).toBe('DENIED')
      await expect(readFile(join(dir, 'made'))).rejects.toThrow()
    } finally {
      await t.dispose()
    }
  })

  it('allow with updatedInput runs the rewritten call without an approver', async () => {
    const dir = await tempDir()
    const target = join(dir, 'rewritten')
    const reply = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: { command: `touch '${target}'` } },
      },
    })
    await writeFile(join(dir, 'reply.json'), reply)
    const t = await bridgeAgent({
      projectHooks: hook('PermissionRequest', `cat '${join(dir, 'reply.json')}'`),
      plugins: [askAll],
      script: [toolCalls([{ name: 'bash', args: { command: 'echo original' } }]), text('done')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(t.of('tool/result')[0].data.isError).toBe(false)
      await readFile(target)
      expect(t.of('approval/resolved')[0].data).toMatchObject({ decision: 'allow', by: 'rule' })
      expect(t.warnings().join('\n')).not.toContain('not supported')
    } finally {
      await t.dispose()
    }
  })

  it('deny refuses the call with the message for the model', async () => {
    const reply = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'no shell today' },
      },
    })
    const t = await bridgeAgent({
      projectHooks: hook('PermissionRequest', `echo '${reply}'`),
      plugins: [askAll],
      script: [toolCalls([{ name: 'bash', args: { command: 'echo hi' } }]), text('done')],
    })
    try {
      await t.agent.send(prompt('go'))
      const result = t.of('tool/result')[0].data
      expect(result.error?.code).toBe('DENIED')
      expect(result.content[0]).toMatchObject({ text: 'no shell today' })
    } finally {
      await t.dispose()
    }
  })
})
