// PermissionRequest (docs/decisions/0181-codex-permission-and-compaction-points.md) on
// `tools/permission-request`: real bash + jq hooks decide the asks that `ask` mode raises — the payload
// Codex sends, the Codex tool name and its aliases as matcher subjects, any deny winning with its message,
// an allow skipping the approver, and everything else (no decision, exit 2, a voided decision, a failed
// hook) leaving the question to the approver.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { PermissionsPlugin } from '@tack/permissions'
import type { ApprovalRequest } from '@tack/tools'
import { describe, expect, it } from 'vitest'
import {
  answeringHook,
  captureHook,
  capturedLines,
  codexAgent,
  eventsOf,
  type Homes,
  homes,
  hookResults,
  hooksJson,
  user,
  writeUserHooks,
  commonPayload,
} from './helpers.ts'
import { payloadSchemaErrors } from './schemas.ts'

const decision = (behavior: 'allow' | 'deny', message?: string) => ({
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest',
    decision: { behavior, ...(message !== undefined ? { message } : {}) },
  },
})

interface Asked {
  readonly calls: string[]
}

/** An agent in `ask` mode (every command asks) with a recording approver that answers `answer`. */
async function askingAgent(
  h: Homes,
  script: Parameters<typeof codexAgent>[0]['script'],
  answer: 'allow' | 'deny' | 'none' = 'none',
) {
  const asked: Asked = { calls: [] }
  const t = await codexAgent({
    homes: h,
    plugins: [{ plugin: PermissionsPlugin, config: { mode: 'ask' } }],
    agentOptions: { permissionMode: 'ask' },
    setup: (ctx) => {
      if (answer === 'none') return
      ctx.provide('approval', {
        request: async (req: ApprovalRequest) => {
          asked.calls.push(req.exec.name)
          return answer === 'allow'
            ? { action: 'allow', by: 'user' }
            : { action: 'deny', by: 'user', reason: 'user said no' }
        },
      })
    },
    ...(script ? { script } : {}),
  })
  return { t, asked }
}

const toolResults = (t: Awaited<ReturnType<typeof codexAgent>>) =>
  eventsOf(t, 'tool/result').map(
    (e) => e.data as { isError: boolean; content: readonly { text: string }[]; error?: { code: string } },
  )

describe('PermissionRequest', () => {
  it('0181 an allow answers the ask: the command runs without the approver; the payload is Codex’s', async () => {
    const h = await homes()
    const allow = await answeringHook(h, 'perm', decision('allow'))
    await writeUserHooks(h, hooksJson({ PermissionRequest: [{ matcher: 'Bash', command: allow }] }))
    const { t, asked } = await askingAgent(
      h,
      [toolCalls([{ name: 'bash', args: { command: 'echo approved-by-hook' } }]), text('done')],
      'deny',
    )
    try {
      expect((await t.agent.send(user('run it'))).reason).toEqual({ kind: 'completed' })
      expect(asked.calls).toEqual([])
      expect(toolResults(t)[0].isError).toBe(false)
      expect(toolResults(t)[0].content[0].text).toContain('approved-by-hook')
      const [payload] = await capturedLines(h, 'perm')
      expect(await payloadSchemaErrors(payload)).toEqual([])
      expect(payload).toEqual({
        ...commonPayload(t, h, 'PermissionRequest'),
        tool_name: 'Bash',
        tool_input: { command: 'echo approved-by-hook' },
      })
      expect(eventsOf(t, 'approval/resolved').map((e) => e.data)).toMatchObject([
        { decision: 'allow', by: 'rule' },
      ])
      expect(hookResults(t).map((r) => [r.point, r.decision])).toEqual([['PermissionRequest', 'allow']])
    } finally {
      await t.dispose()
    }
  })

  it('0181 any deny wins over an allow and denies with its message; the approver is not asked', async () => {
    const h = await homes()
    const allow = await answeringHook(h, 'allow', decision('allow'))
    const deny = await answeringHook(h, 'deny', decision('deny', 'no network from hooks'))
    await writeUserHooks(
      h,
      hooksJson({ PermissionRequest: [{ command: allow }, { matcher: 'Bash', command: deny }] }),
    )
    const { t, asked } = await askingAgent(
      h,
      [toolCalls([{ name: 'bash', args: { command: 'echo never' } }]), text('done')],
      'allow',
    )
    try {
      await t.agent.send(user('run it'))
      expect(asked.calls).toEqual([])
      const [result] = toolResults(t)
      expect(result.isError).toBe(true)
      expect(result.error?.code).toBe('DENIED')
      expect(result.content[0].text).toContain('no network from hooks')
      expect(JSON.stringify(t.model.requests[1].messages)).toContain('no network from hooks')
    } finally {
      await t.dispose()
    }
  })

  it('0181 no decision, exit 2, a voided decision or plain stdout leave the question to the approver', async () => {
    const h = await homes()
    const silent = await captureHook(h, 'silent')
    const exit2 = await captureHook(h, 'exit2', 'echo "not a block here" >&2; exit 2')
    const voided = await answeringHook(h, 'voided', {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'x', interrupt: true },
      },
    })
    const rewrite = await answeringHook(h, 'rewrite', {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: { command: 'echo other' } },
      },
    })
    const halted = await answeringHook(h, 'halted', { continue: false, ...decision('deny', 'y') })
    const plain = await captureHook(h, 'plain', 'echo "just words"')
    await writeUserHooks(
      h,
      hooksJson({
        PermissionRequest: [silent, exit2, voided, rewrite, halted, plain].map((command) => ({ command })),
      }),
    )
    const { t, asked } = await askingAgent(
      h,
      [toolCalls([{ name: 'bash', args: { command: 'echo asked-the-user' } }]), text('done')],
      'allow',
    )
    try {
      await t.agent.send(user('run it'))
      expect(asked.calls).toEqual(['bash'])
      expect(toolResults(t)[0].content[0].text).toContain('asked-the-user')
      expect(hookResults(t).map((r) => [r.decision, r.failed === true])).toEqual([
        ['pass', false],
        ['pass', true],
        ['pass', true],
        ['pass', true],
        ['pass', true],
        ['pass', false],
      ])
    } finally {
      await t.dispose()
    }
  })

  it('0181 the matcher sees the Codex name and its aliases: `Write` matches a write (apply_patch), `Bash` does not', async () => {
    const h = await homes()
    const write = await answeringHook(h, 'write', decision('allow'))
    const bash = await answeringHook(h, 'bash', decision('deny', 'not for writes'))
    await writeUserHooks(
      h,
      hooksJson({
        PermissionRequest: [
          { matcher: 'Write', command: write },
          { matcher: '^Bash$', command: bash },
        ],
      }),
    )
    const { t } = await askingAgent(h, [
      toolCalls([{ name: 'write', args: { file_path: 'out.txt', content: 'hello\n' } }]),
      text('done'),
    ])
    try {
      await t.agent.send(user('write it'))
      expect(toolResults(t)[0].isError).toBe(false)
      expect(await readFile(join(h.workspace, 'out.txt'), 'utf8')).toBe('hello\n')
      const [payload] = await capturedLines(h, 'write')
      expect(payload).toMatchObject({
        tool_name: 'apply_patch',
        tool_input: { command: '*** Begin Patch\n*** Add File: out.txt\n+hello\n*** End Patch' },
      })
      expect(await capturedLines(h, 'bash')).toEqual([])
    } finally {
      await t.dispose()
    }
  })

  it('0181 without a hook the ask goes on as before: no approver in the run denies it', async () => {
    const h = await homes()
    const { t } = await askingAgent(h, [
      toolCalls([{ name: 'bash', args: { command: 'echo x' } }]),
      text('done'),
    ])
    try {
      await t.agent.send(user('run it'))
      expect(toolResults(t)[0].error?.code).toBe('DENIED')
      expect(hookResults(t)).toEqual([])
    } finally {
      await t.dispose()
    }
  })
})
