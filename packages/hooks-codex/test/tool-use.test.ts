// PreToolUse and PostToolUse through the real loop with real bash and the real file tools: Codex tool
// names and aliases, deny wording, the TL-32 rewrite, the fields that are only logged, block-only
// PostToolUse, and the tool_input PostToolUse sees.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import {
  bridgeContexts,
  codexAgent,
  eventsOf,
  homes,
  hookInvocations,
  hookResults,
  type Homes,
  hooksJson,
  readJson,
  script,
  user,
  writeUserHooks,
} from './helpers.ts'

const toolResult = (t: Awaited<ReturnType<typeof codexAgent>>, i = 0) => eventsOf(t, 'tool/result')[i].data

/** One user-layer hook script on Bash at `point`, and an agent whose model runs `command` in bash, then answers. */
async function bashUnderHook(
  point: 'PreToolUse' | 'PostToolUse',
  body: (h: Homes) => string,
  command: string,
) {
  const h = await homes()
  const hook = await script(h.work, `${point}.sh`, body(h))
  await writeUserHooks(h, hooksJson({ [point]: [{ matcher: 'Bash', command: hook }] }))
  const t = await codexAgent({
    homes: h,
    script: [toolCalls([{ name: 'bash', args: { command } }]), text('ok')],
  })
  return { h, t }
}

describe('PreToolUse', () => {
  it('C5 exit 2 denies real bash with Codex wording; the command never runs (checked on disk)', async () => {
    const { h, t } = await bashUnderHook(
      'PreToolUse',
      () => 'cat > /dev/null; echo "rm is not allowed" >&2; exit 2',
      'touch made.txt',
    )
    try {
      await t.agent.send(user('make a file'))
      expect(existsSync(join(h.workspace, 'made.txt'))).toBe(false)
      expect(toolResult(t)).toMatchObject({ isError: true, error: { code: 'DENIED' } })
      expect(toolResult(t).content[0].text).toBe(
        'Command blocked by PreToolUse hook: rm is not allowed. Command: touch made.txt',
      )
      expect(hookInvocations(t)[0]).toMatchObject({
        point: 'PreToolUse',
        matcher: 'Bash',
        toolCallId: 'call_1',
      })
    } finally {
      await t.dispose()
    }
  })

  it('C5 permissionDecision deny with a reason and legacy block both deny; reasons of several hooks are joined', async () => {
    const h = await homes()
    const deny = await script(
      h.work,
      'deny.sh',
      `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"first"}}'`,
    )
    const legacy = await script(
      h.work,
      'legacy.sh',
      `cat > /dev/null; echo '{"decision":"block","reason":"second"}'`,
    )
    await writeUserHooks(h, hooksJson({ PreToolUse: [{ command: deny }, { command: legacy }] }))
    const t = await codexAgent({
      homes: h,
      script: [toolCalls([{ name: 'bash', args: { command: 'echo hi' } }]), text('ok')],
    })
    try {
      await t.agent.send(user('go'))
      expect(toolResult(t).content[0].text).toBe(
        'Command blocked by PreToolUse hook: first\n\nsecond. Command: echo hi',
      )
      expect(hookResults(t).map((r) => r.decision)).toEqual(['deny', 'deny'])
    } finally {
      await t.dispose()
    }
  })

  it('C3 write and edit are apply_patch, matched by the aliases Edit and Write, with a synthesized patch', async () => {
    const h = await homes()
    await writeFile(join(h.workspace, 'a.txt'), 'one\ntwo\nthree\n')
    const capture = await script(
      h.work,
      'capture.sh',
      `cat >> "${h.work}/calls.jsonl"; echo >> "${h.work}/calls.jsonl"`,
    )
    await writeUserHooks(h, hooksJson({ PreToolUse: [{ matcher: 'Edit', command: capture }] }))
    const t = await codexAgent({
      homes: h,
      script: [
        toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }]),
        toolCalls([{ name: 'edit', args: { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' } }]),
        toolCalls([{ name: 'write', args: { file_path: 'new.txt', content: 'fresh\n' } }]),
        text('done'),
      ],
    })
    try {
      await t.agent.send(user('edit'))
      const lines = (await readFile(join(h.work, 'calls.jsonl'), 'utf8')).trim().split('\n')
      const payloads = lines.map((l) => JSON.parse(l))
      expect(payloads.map((p) => p.tool_name)).toEqual(['apply_patch', 'apply_patch'])
      expect(payloads[0].tool_input).toEqual({
        command: '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch',
      })
      expect(payloads[1].tool_input).toEqual({
        command: '*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** End Patch',
      })
      expect(await readFile(join(h.workspace, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n')
      // `read` is not apply_patch: the Edit matcher did not select it.
      expect(hookInvocations(t).map((i) => i.toolCallId)).toEqual(['call_2', 'call_3'])
    } finally {
      await t.dispose()
    }
  })

  it('C3 Edit|Write misses other tools; a tool without a Codex name keeps its own name and raw arguments', async () => {
    const h = await homes()
    const capture = await script(
      h.work,
      'capture.sh',
      `cat >> "${h.work}/calls.jsonl"; echo >> "${h.work}/calls.jsonl"`,
    )
    await writeUserHooks(
      h,
      hooksJson({
        PreToolUse: [
          { matcher: 'Edit|Write', command: 'exit 0' },
          { matcher: '^glob$', command: capture },
        ],
      }),
    )
    const t = await codexAgent({
      homes: h,
      script: [toolCalls([{ name: 'glob', args: { pattern: '*.md' } }]), text('done')],
    })
    try {
      await t.agent.send(user('find'))
      const payload = JSON.parse((await readFile(join(h.work, 'calls.jsonl'), 'utf8')).trim())
      expect(payload.tool_name).toBe('glob')
      expect(payload.tool_input).toEqual({ pattern: '*.md' })
      expect(hookInvocations(t)).toHaveLength(1)
    } finally {
      await t.dispose()
    }
  })

  it('TL-32 allow with updatedInput rewrites what bash runs; the rewrite is logged by hooks-codex; PostToolUse sees it', async () => {
    const h = await homes()
    const rewrite = await script(
      h.work,
      'rewrite.sh',
      `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > out.txt"}}}'`,
    )
    const post = await script(h.work, 'post.sh', `cat > "${h.work}/post.json"`)
    await writeUserHooks(
      h,
      hooksJson({
        PreToolUse: [{ matcher: 'Bash', command: rewrite }],
        PostToolUse: [{ matcher: 'Bash', command: post }],
      }),
    )
    const t = await codexAgent({
      homes: h,
      script: [
        toolCalls([{ name: 'bash', args: { command: 'echo original > out.txt', timeout_ms: 5000 } }]),
        text('ok'),
      ],
    })
    try {
      await t.agent.send(user('go'))
      expect(await readFile(join(h.workspace, 'out.txt'), 'utf8')).toBe('rewritten\n')
      const rewritten = eventsOf(t, 'tool/arguments-rewritten')
      expect(rewritten.map((e) => e.data)).toEqual([
        {
          callId: 'call_1',
          arguments: { command: 'echo rewritten > out.txt', timeout_ms: 5000 },
          by: 'hooks-codex',
        },
      ])
      expect(await readJson(join(h.work, 'post.json'))).toMatchObject({
        tool_input: { command: 'echo rewritten > out.txt' },
      })
    } finally {
      await t.dispose()
    }
  })

  it('TL-32 an apply_patch updatedInput is read back into the edit; an unreadable patch is ignored (fail open)', async () => {
    const h = await homes()
    await writeFile(join(h.workspace, 'a.txt'), 'alpha\nbeta\n')
    const patch = '*** Begin Patch\\n*** Update File: a.txt\\n@@\\n-beta\\n+BETA by hook\\n*** End Patch'
    const rewrite = await script(
      h.work,
      'rewrite.sh',
      `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"${patch}"}}}'`,
    )
    const junk = await script(
      h.work,
      'junk.sh',
      `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"not a patch"}}}'`,
    )
    await writeUserHooks(
      h,
      hooksJson({
        PreToolUse: [
          { matcher: 'Edit', command: rewrite },
          { matcher: 'Write', command: junk },
        ],
      }),
    )
    const t = await codexAgent({
      homes: h,
      script: [
        toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }]),
        toolCalls([{ name: 'edit', args: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } }]),
        toolCalls([{ name: 'write', args: { file_path: 'b.txt', content: 'kept\n' } }]),
        text('ok'),
      ],
    })
    try {
      await t.agent.send(user('go'))
      // Both hooks match both calls (aliases); the last updatedInput in config order wins, and for
      // the edit that is the junk one: ignored, so the model's own edit ran.
      expect(await readFile(join(h.workspace, 'a.txt'), 'utf8')).toBe('ALPHA\nbeta\n')
      expect(await readFile(join(h.workspace, 'b.txt'), 'utf8')).toBe('kept\n')
      expect(eventsOf(t, 'tool/arguments-rewritten')).toHaveLength(0)
    } finally {
      await t.dispose()
    }
  })

  it('TL-32 a single apply_patch rewrite replaces the edit', async () => {
    const h = await homes()
    await writeFile(join(h.workspace, 'a.txt'), 'alpha\nbeta\n')
    const patch = '*** Begin Patch\\n*** Update File: a.txt\\n@@\\n-beta\\n+BETA by hook\\n*** End Patch'
    const rewrite = await script(
      h.work,
      'rewrite.sh',
      `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"${patch}"}}}'`,
    )
    await writeUserHooks(h, hooksJson({ PreToolUse: [{ matcher: 'apply_patch', command: rewrite }] }))
    const t = await codexAgent({
      homes: h,
      script: [
        toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }]),
        toolCalls([{ name: 'edit', args: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } }]),
        text('ok'),
      ],
    })
    try {
      await t.agent.send(user('go'))
      expect(await readFile(join(h.workspace, 'a.txt'), 'utf8')).toBe('alpha\nBETA by hook\n')
      expect(eventsOf(t, 'tool/arguments-rewritten')[0].data).toMatchObject({
        arguments: { file_path: join(h.workspace, 'a.txt'), old_string: 'beta', new_string: 'BETA by hook' },
        by: 'hooks-codex',
      })
    } finally {
      await t.dispose()
    }
  })

  it('C5 allow without updatedInput, ask, updatedInput without allow and context are logged, not honoured', async () => {
    const h = await homes()
    const out = (json: string) => `cat > /dev/null; echo '${json}'`
    const allow = await script(
      h.work,
      'allow.sh',
      out('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'),
    )
    const ask = await script(
      h.work,
      'ask.sh',
      out(
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}',
      ),
    )
    const lone = await script(
      h.work,
      'lone.sh',
      out(
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo hijacked > x"},"additionalContext":"psst"}}',
      ),
    )
    await writeUserHooks(
      h,
      hooksJson({ PreToolUse: [{ command: allow }, { command: ask }, { command: lone }] }),
    )
    const t = await codexAgent({
      homes: h,
      script: [toolCalls([{ name: 'bash', args: { command: 'echo original > x' } }]), text('ok')],
    })
    try {
      await t.agent.send(user('go'))
      expect(await readFile(join(h.workspace, 'x'), 'utf8')).toBe('original\n')
      expect(eventsOf(t, 'approval/requested')).toHaveLength(0)
      expect(bridgeContexts(t)).toEqual([])
      expect(hookResults(t).map((r) => [r.decision, r.failed ?? false])).toEqual([
        ['pass', false],
        ['pass', true],
        ['pass', false],
      ])
    } finally {
      await t.dispose()
    }
  })
})

describe('PostToolUse', () => {
  it('C5 block with a reason replaces the output the model sees; the side effect stays', async () => {
    const { h, t } = await bashUnderHook(
      'PostToolUse',
      () => `cat > /dev/null; echo '{"decision":"block","reason":"output redacted"}'`,
      'echo secret-value; touch side.txt',
    )
    try {
      await t.agent.send(user('go'))
      expect(existsSync(join(h.workspace, 'side.txt'))).toBe(true)
      expect(toolResult(t)).toMatchObject({ isError: true, error: { code: 'BLOCKED' } })
      expect(toolResult(t).content[0].text).toBe('output redacted')
      const toolMessage = t.model.requests[1].messages.find((m) => m.role === 'tool')
      expect(toolMessage?.content).toEqual([{ type: 'text', text: 'output redacted' }])
    } finally {
      await t.dispose()
    }
  })

  it('C5 exit 2 feedback replaces the output; continue:false replaces it with its stop text and the turn goes on', async () => {
    const h = await homes()
    const exit2 = await script(h.work, 'exit2.sh', 'cat > /dev/null; echo "lint failed" >&2; exit 2')
    const halt = await script(
      h.work,
      'halt.sh',
      `cat > /dev/null; echo '{"continue":false,"stopReason":"halt here"}'`,
    )
    await writeUserHooks(
      h,
      hooksJson({
        PostToolUse: [
          { matcher: '^Bash$', command: exit2 },
          { matcher: 'glob', command: halt },
        ],
      }),
    )
    const t = await codexAgent({
      homes: h,
      script: [
        toolCalls([{ name: 'bash', args: { command: 'echo x' } }]),
        toolCalls([{ name: 'glob', args: { pattern: '*' } }]),
        text('still going'),
      ],
    })
    try {
      const outcome = await t.agent.send(user('go'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(toolResult(t, 0).content[0].text).toBe('lint failed')
      expect(toolResult(t, 1).content[0].text).toBe('halt here')
      expect(hookResults(t).map((r) => r.decision)).toEqual(['block', 'stop'])
    } finally {
      await t.dispose()
    }
  })

  it('C5 additionalContext is added after the results; the tool_response is the output text and tool_input the pre-call patch', async () => {
    const h = await homes()
    await writeFile(join(h.workspace, 'a.txt'), 'x\n')
    const hook = await script(
      h.work,
      'ctx.sh',
      `cat > "${h.work}/post.json"; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"run the tests next"}}'`,
    )
    await writeUserHooks(h, hooksJson({ PostToolUse: [{ matcher: 'Write', command: hook }] }))
    const t = await codexAgent({
      homes: h,
      script: [
        toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }]),
        toolCalls([{ name: 'write', args: { file_path: 'a.txt', content: 'y\n' } }]),
        text('ok'),
      ],
    })
    try {
      await t.agent.send(user('go'))
      expect(bridgeContexts(t)).toEqual(['run the tests next'])
      const types = t.types()
      const lastResult = types.lastIndexOf('tool/result')
      expect(types[lastResult + 1]).toBe('context/message')
      const payload = (await readJson(join(h.work, 'post.json'))) as Record<string, unknown>
      expect(payload.tool_input).toEqual({
        command: '*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch',
      })
      expect(payload.tool_response).toBe(toolResult(t, 1).content[0].text)
    } finally {
      await t.dispose()
    }
  })

  it("issue 11.6 a Bash tool_response is the command's own output, trailing newline included, not tack's notes", async () => {
    const { h, t } = await bashUnderHook(
      'PostToolUse',
      (h) => `cat > "${h.work}/post.json"`,
      'echo out; exit 3',
    )
    try {
      await t.agent.send(user('go'))
      const payload = (await readJson(join(h.work, 'post.json'))) as Record<string, unknown>
      expect(toolResult(t).content[0].text).toContain('[exit code 3]')
      expect(payload.tool_response).toBe('out\n')
    } finally {
      await t.dispose()
    }
  })
})
