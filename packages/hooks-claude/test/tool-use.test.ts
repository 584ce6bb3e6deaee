// B3 PreToolUse / PostToolUse, B5 context, B6 ask / allow / updatedInput (TL-32) / continue:false.
import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ToolExecution } from '@tack/tools'
import type { PreToolDecision } from '@tack/tools'
import { text, toolCalls } from '@tack/agent/testing'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { SubagentPlugin } from '@tack/subagent'
import { FsToolsPlugin } from '@tack/tool-fs'
import { bridgeAgent, hook, prompt, readJson } from './helpers.ts'

const resultOf = (t: Awaited<ReturnType<typeof bridgeAgent>>, i = 0) => t.of('tool/result')[i]?.data

/** A pre-execute listener loaded after the bridge, i.e. downstream of it. */
const downstreamPre =
  (decide: (exec: ToolExecution) => PreToolDecision, seen?: ToolExecution[]) =>
  (ctx: Context): void => {
    ctx.on('tools/pre-execute', async (exec: ToolExecution, next: () => Promise<PreToolDecision>) => {
      seen?.push(exec)
      await next()
      return decide(exec)
    })
  }

describe('B3 PreToolUse', () => {
  it('B3 a guard that denies rm -rf: exit 2, the model sees the reason, the command never ran', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'PreToolUse',
        'cmd=$(jq -r .tool_input.command); case "$cmd" in *"rm -rf"*) echo "Blocked: rm -rf is not allowed here" >&2; exit 2;; esac',
        { matcher: 'Bash' },
      ),
      script: [toolCalls([{ name: 'bash', args: { command: 'rm -rf victim' } }]), text('understood')],
    })
    try {
      await mkdir(join(t.cwd, 'victim'))
      await t.agent.send(prompt('clean up'))
      expect(existsSync(join(t.cwd, 'victim'))).toBe(true)
      expect(resultOf(t)).toMatchObject({ isError: true, error: { code: 'DENIED' } })
      expect(t.requestTexts()[1]).toContain('PreToolUse:Bash hook error: Blocked: rm -rf is not allowed here')
    } finally {
      await t.dispose()
    }
  })

  it('B6 TL-32 updatedInput rewrites the command: what runs is the rewrite, logged, paired with allow', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'PreToolUse',
        'jq -c \'{hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:(.tool_input + {command:(.tool_input.command | sub("original";"rewritten"))})}}\'',
        { matcher: 'Bash' },
      ),
      plugins: [downstreamPre(() => ({ action: 'ask', reason: 'mode prompt' }))],
      script: [
        toolCalls([{ name: 'bash', args: { command: 'echo original', timeout_ms: 5000 } }]),
        text('done'),
      ],
    })
    try {
      await t.agent.send(prompt('run'))
      expect(resultOf(t)).toMatchObject({ isError: false, content: [{ text: 'rewritten' }] })
      expect(t.of('tool/arguments-rewritten').map((e) => e.data)).toEqual([
        { callId: 'call_1', arguments: { command: 'echo rewritten', timeout_ms: 5000 }, by: 'hooks-claude' },
      ])
      // The hook's allow skipped the downstream ask: no approval was requested.
      expect(t.of('approval/requested')).toEqual([])
    } finally {
      await t.dispose()
    }
  })

  it('B6 downstream listeners judge the rewritten input; a downstream deny stands over a hook allow', async () => {
    const seen: ToolExecution[] = []
    const t = await bridgeAgent({
      projectHooks: hook(
        'PreToolUse',
        'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"touch made"},"additionalContext":"hook ctx"}}\'',
      ),
      plugins: [downstreamPre(() => ({ action: 'deny', reason: 'rule says no' }), seen)],
      script: [toolCalls([{ name: 'bash', args: { command: 'echo hi' } }]), text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(seen.map((e) => e.arguments)).toEqual([{ command: 'touch made' }])
      expect(resultOf(t)).toMatchObject({ isError: true, error: { code: 'DENIED', message: 'rule says no' } })
      expect(existsSync(join(t.cwd, 'made'))).toBe(false)
      expect(t.of('context/message').map((e) => e.data.content[0].text)).toEqual([
        'PreToolUse:Bash hook additional context: hook ctx',
      ])
    } finally {
      await t.dispose()
    }
  })

  it('B6 permissionDecision ask goes to the approval path with the hook reason (and with no approver, is denied)', async () => {
    const asked: Array<string | undefined> = []
    const approver = (answer: 'allow' | 'none') => (ctx: Context) => {
      if (answer === 'none') return
      ctx.provide('approval', {
        request: async (req: { reason?: string }) => {
          asked.push(req.reason)
          return { action: 'allow', by: 'user' }
        },
      })
    }
    const askHook = hook(
      'PreToolUse',
      'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"confirm the deploy"}}\'',
    )
    const withApprover = await bridgeAgent({
      projectHooks: askHook,
      before: [approver('allow')],
      script: [toolCalls([{ name: 'bash', args: { command: 'echo deployed' } }]), text('ok')],
    })
    try {
      await withApprover.agent.send(prompt('deploy'))
      expect(asked).toEqual(['confirm the deploy'])
      expect(resultOf(withApprover)).toMatchObject({ isError: false, content: [{ text: 'deployed' }] })
    } finally {
      await withApprover.dispose()
    }
    const without = await bridgeAgent({
      projectHooks: askHook,
      script: [toolCalls([{ name: 'bash', args: { command: 'echo deployed' } }]), text('ok')],
    })
    try {
      await without.agent.send(prompt('deploy'))
      expect(resultOf(without)).toMatchObject({ isError: true, error: { code: 'DENIED' } })
    } finally {
      await without.dispose()
    }
  })

  it('B6 continue:false on PreToolUse denies with the stopReason and warns; the turn goes on', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('PreToolUse', 'echo \'{"continue":false,"stopReason":"maintenance window"}\''),
      script: [toolCalls([{ name: 'bash', args: { command: 'touch ran' } }]), text('ok')],
    })
    try {
      expect((await t.agent.send(prompt('go'))).reason).toEqual({ kind: 'completed' })
      expect(resultOf(t)).toMatchObject({ isError: true, content: [{ text: 'maintenance window' }] })
      expect(existsSync(join(t.cwd, 'ran'))).toBe(false)
      expect(t.warnings().some((w) => w.includes('continue: false'))).toBe(true)
    } finally {
      await t.dispose()
    }
  })

  it('B8 PreToolUse payload: tool_name, tool_input in Claude shape, tool_use_id; Task matches the Agent tool', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        PreToolUse: [
          { matcher: 'Grep|Read', hooks: [{ type: 'command', command: 'cat >> pre.jsonl' }] },
          { matcher: 'Task', hooks: [{ type: 'command', command: 'cat >> task.jsonl' }] },
        ],
      },
      script: [
        toolCalls([
          { name: 'read', args: { file_path: 'notes.md', offset: 2 } },
          { name: 'grep', args: { pattern: 'x', ignore_case: true } },
          { name: 'subagent', args: { description: 'd', prompt: 'p' } },
        ]),
        text('child answer'),
        text('ok'),
      ],
      plugins: [{ plugin: FsToolsPlugin }, { plugin: SubagentPlugin }],
    })
    try {
      await t.agent.send(prompt('look'))
      const lines = (await readFile(join(t.cwd, 'pre.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      // Read and Grep are read-only and run in parallel (AL-26), so their hooks may start in either order.
      const byId = lines.toSorted((a, b) => String(a.tool_use_id).localeCompare(String(b.tool_use_id)))
      expect(byId.map((l) => [l.tool_name, l.tool_input, l.tool_use_id])).toEqual([
        ['Read', { file_path: join(t.cwd, 'notes.md'), offset: 2 }, 'call_1'],
        ['Grep', { pattern: 'x', '-i': true, output_mode: 'files_with_matches' }, 'call_2'],
      ])
      expect(await readJson(join(t.cwd, 'task.jsonl'))).toMatchObject({
        tool_name: 'Agent',
        tool_input: { prompt: 'p', description: 'd', subagent_type: 'general-purpose' },
        tool_use_id: 'call_3',
      })
    } finally {
      await t.dispose()
    }
  })
})

describe('B8 permission_mode', () => {
  it('B8 the agent option maps to Claude modes, and a mode switched during the session wins', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('PreToolUse', 'jq -r .permission_mode >> modes.txt'),
      agentOptions: { permissionMode: 'workspace-write' },
      script: [
        toolCalls([{ name: 'bash', args: { command: 'true' } }]),
        text('ok'),
        toolCalls([{ name: 'bash', args: { command: 'true' } }]),
        text('ok'),
      ],
    })
    try {
      await t.agent.send(prompt('one'))
      // What @tack/permissions' setPermissionMode records (a log-only event this package does not declare).
      const append = t.agent.session.append.bind(t.agent.session) as (type: string, data: unknown) => unknown
      append('permission/mode', { mode: 'read-only' })
      await t.agent.send(prompt('two'))
      expect((await readFile(join(t.cwd, 'modes.txt'), 'utf8')).trim().split('\n')).toEqual([
        'acceptEdits',
        'plan',
      ])
    } finally {
      await t.dispose()
    }
  })
})

describe('B3 PostToolUse', () => {
  it('B3 B5 a formatter that adds context after the result; the payload has tool_response', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'PostToolUse',
        'input=$(cat); echo "$input" > post.json; f=$(echo "$input" | jq -r .tool_input.command); jq -nc --arg f "$f" \'{hookSpecificOutput:{hookEventName:"PostToolUse",additionalContext:("formatted after: " + $f)}}\'',
        { matcher: 'Bash' },
      ),
      script: [toolCalls([{ name: 'bash', args: { command: 'echo hello' } }]), text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      const types = t.types()
      expect(types.indexOf('context/message')).toBe(types.indexOf('tool/result') + 1)
      expect(t.requestTexts()[1]).toContain(
        'PostToolUse:Bash hook additional context: formatted after: echo hello',
      )
      expect(await readJson(join(t.cwd, 'post.json'))).toMatchObject({
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'echo hello' },
        tool_use_id: 'call_1',
        tool_response: {
          stdout: 'hello',
          stderr: '',
          interrupted: false,
          isImage: false,
          noOutputExpected: false,
        },
      })
    } finally {
      await t.dispose()
    }
  })

  it('B3 exit 2 blocks: the model sees the tool output plus the reason; the side effect stays', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('PostToolUse', 'echo "lint failed: 3 errors" >&2; exit 2'),
      script: [toolCalls([{ name: 'bash', args: { command: 'echo built; touch artifact' } }]), text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(existsSync(join(t.cwd, 'artifact'))).toBe(true)
      expect(resultOf(t)).toMatchObject({
        isError: true,
        error: { code: 'BLOCKED' },
        content: [{ text: 'built\n\nPostToolUse:Bash hook error: lint failed: 3 errors' }],
      })
    } finally {
      await t.dispose()
    }
  })
})

describe('B6 if conditions', () => {
  it('B6 Bash(git *) runs for any part of a compound command and not otherwise; if on Stop never runs', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        PreToolUse: [
          {
            hooks: [{ type: 'command', command: 'jq -r .tool_input.command >> ran.txt', if: 'Bash(git *)' }],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'touch stop-ran', if: 'Bash' }] }],
      },
      script: [
        toolCalls([
          { name: 'bash', args: { command: 'ls >/dev/null' } },
          { name: 'bash', args: { command: 'cd . && git --version >/dev/null; true' } },
          { name: 'bash', args: { command: 'X=1 git status 2>/dev/null | head -1; true' } },
          { name: 'bash', args: { command: 'echo "git log" > /dev/null' } },
        ]),
        text('ok'),
      ],
    })
    try {
      await t.agent.send(prompt('go'))
      expect((await readFile(join(t.cwd, 'ran.txt'), 'utf8')).trim().split('\n')).toEqual([
        'cd . && git --version >/dev/null; true',
        'X=1 git status 2>/dev/null | head -1; true',
      ])
      expect(existsSync(join(t.cwd, 'stop-ran'))).toBe(false)
    } finally {
      await t.dispose()
    }
  })
})
