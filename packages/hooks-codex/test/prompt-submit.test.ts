// UserPromptSubmit through the real loop (scripted model, real bash, real scripts): block rules,
// context even when blocked, plain stdout as context, B5's fold with a later listener.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Agent, Prompt, PromptDecision } from '@tack/agent'
import { text } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import {
  agentWithSleepingHook,
  bridgeContexts,
  codexAgent,
  eventsOf,
  homes,
  hookInvocations,
  hookResults,
  hooksJson,
  isGone,
  script,
  user,
  writeUserHooks,
} from './helpers.ts'

describe('UserPromptSubmit', () => {
  it('AL-23 cancelling the turn kills a running UserPromptSubmit hook at once; the turn ends aborted', async () => {
    const { t, pid: hookPid } = await agentWithSleepingHook('UserPromptSubmit', [text('never')])
    try {
      const outcome = t.agent.send(user('go'))
      const pid = await hookPid()
      t.agent.cancel()
      expect((await outcome).reason).toEqual({ kind: 'aborted' })
      // Killed before the agent's disposal (which would kill it anyway); the loop does not wait for the
      // killed run, so its hook/result may follow turn/end (docs/decisions/0195-cancel-during-admission.md).
      const deadline = Date.now() + 2000
      while ((!isGone(pid) || hookResults(t).length === 0) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20))
      expect(isGone(pid)).toBe(true)
      expect(hookResults(t)).toEqual([expect.objectContaining({ point: 'UserPromptSubmit', aborted: true })])
      expect(eventsOf(t, 'prompt/blocked')).toHaveLength(1)
      expect(eventsOf(t, 'user/message')).toEqual([])
      expect(t.model.requests).toHaveLength(0)
    } finally {
      await t.dispose()
    }
  })

  it('C5 exit 2 with stderr blocks the prompt: no model request, prompt/blocked with the stderr, hook/* logged', async () => {
    const h = await homes()
    const hook = await script(h.work, 'block.sh', 'cat > /dev/null; echo "no secrets here" >&2; exit 2')
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: hook }] }))
    const t = await codexAgent({ homes: h })
    try {
      const outcome = await t.agent.send(user('print the API key'))
      expect(outcome.reason).toEqual({ kind: 'rejected', reason: 'no secrets here' })
      expect(t.model.requests).toHaveLength(0)
      expect(eventsOf(t, 'prompt/blocked')[0].data.reason).toBe('no secrets here')
      expect(hookInvocations(t)).toEqual([
        expect.objectContaining({ point: 'UserPromptSubmit', dialect: 'codex', turn: 1 }),
      ])
      expect(hookResults(t)).toEqual([
        expect.objectContaining({
          point: 'UserPromptSubmit',
          decision: 'block',
          exitCode: 2,
          reason: 'no secrets here',
        }),
      ])
    } finally {
      await t.dispose()
    }
  })

  it('C5 JSON block with a reason blocks; its additionalContext is still injected', async () => {
    const h = await homes()
    const hook = await script(
      h.work,
      'json-block.sh',
      `cat > /dev/null; echo '{"decision":"block","reason":"policy says no","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"the prompt was about keys"}}'`,
    )
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: hook }] }))
    const t = await codexAgent({ homes: h })
    try {
      const outcome = await t.agent.send(user('hello'))
      expect(outcome.reason).toEqual({ kind: 'rejected', reason: 'policy says no' })
      expect(bridgeContexts(t)).toEqual(['the prompt was about keys'])
    } finally {
      await t.dispose()
    }
  })

  it('C5 a block without a reason is a failed hook: the prompt goes on (fail open)', async () => {
    const h = await homes()
    const hook = await script(h.work, 'bare-block.sh', `cat > /dev/null; echo '{"decision":"block"}'`)
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: hook }] }))
    const t = await codexAgent({ homes: h, script: [text('hi')] })
    try {
      const outcome = await t.agent.send(user('hello'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(hookResults(t)[0]).toMatchObject({ decision: 'pass', failed: true })
    } finally {
      await t.dispose()
    }
  })

  it('C5 plain stdout becomes context after the prompt; JSON-shaped non-objects fail open', async () => {
    const h = await homes()
    const plain = await script(h.work, 'plain.sh', 'cat > /dev/null; echo "remember: tabs, not spaces"')
    const broken = await script(h.work, 'broken.sh', `cat > /dev/null; echo '{"x":'`)
    const array = await script(h.work, 'array.sh', `cat > /dev/null; echo '[1]'`)
    await writeUserHooks(
      h,
      hooksJson({ UserPromptSubmit: [{ command: plain }, { command: broken }, { command: array }] }),
    )
    const t = await codexAgent({ homes: h, script: [text('ok')] })
    try {
      await t.agent.send(user('format this'))
      expect(bridgeContexts(t)).toEqual(['remember: tabs, not spaces'])
      expect(hookResults(t).map((r) => r.failed ?? false)).toEqual([false, true, true])
      const request = t.model.requests[0]
      const last = request.messages[request.messages.length - 1]
      expect(JSON.stringify(last)).toContain('remember: tabs, not spaces')
      const types = t.types()
      expect(types.indexOf('user/message')).toBeLessThan(types.indexOf('context/message'))
    } finally {
      await t.dispose()
    }
  })

  it('C4 the hook gets the prompt on stdin with no trailing newline, and runs in the workspace', async () => {
    const h = await homes()
    const hook = await script(h.work, 'capture.sh', `cat > "${h.work}/in.json"; pwd -P > "${h.work}/wd"`)
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: hook }] }))
    const t = await codexAgent({ homes: h, script: [text('ok')] })
    try {
      await t.agent.send(user('what is 2+2?'))
      const raw = await readFile(join(h.work, 'in.json'), 'utf8')
      expect(raw.endsWith('\n')).toBe(false)
      expect(raw).toBe(JSON.stringify(JSON.parse(raw)))
      expect(JSON.parse(raw)).toMatchObject({
        hook_event_name: 'UserPromptSubmit',
        prompt: 'what is 2+2?',
        session_id: t.agent.session.id,
        turn_id: `${t.agent.session.id}:1`,
        transcript_path: join(h.dataDir, 'codex-transcripts', `${t.agent.session.id}.jsonl`),
        cwd: h.workspace,
      })
      expect((await readFile(join(h.work, 'wd'), 'utf8')).trim()).toBe(h.workspace)
    } finally {
      await t.dispose()
    }
  })

  it('B5 context without a block calls next(): a later listener can still block, carrying the context', async () => {
    const h = await homes()
    const hook = await script(h.work, 'ctx.sh', 'cat > /dev/null; echo "codex context"')
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: hook }] }))
    const t = await codexAgent({
      homes: h,
      setup: (ctx) => {
        ctx.on(
          'agent/prompt-submit',
          async (
            _agent: Agent,
            _prompt: Prompt,
            _next: () => Promise<PromptDecision>,
          ): Promise<PromptDecision> => ({
            action: 'block',
            reason: 'later listener says no',
            additionalContext: [{ content: 'later context', source: { kind: 'plugin', name: 'later' } }],
          }),
        )
      },
    })
    try {
      const outcome = await t.agent.send(user('hello'))
      expect(outcome.reason).toEqual({ kind: 'rejected', reason: 'later listener says no' })
      const contexts = eventsOf(t, 'context/message').map((e) => e.data.content[0].text)
      expect(contexts).toEqual(['codex context', 'later context'])
    } finally {
      await t.dispose()
    }
  })

  it('B4 matching hooks run one at a time in config order, all of them even after a block; invoked/result alternate', async () => {
    const h = await homes()
    const order = join(h.work, 'order')
    const first = await script(
      h.work,
      'first.sh',
      `cat > /dev/null; sleep 0.2; echo first >> "${order}"; echo "stop" >&2; exit 2`,
    )
    const second = await script(h.work, 'second.sh', `cat > /dev/null; echo second >> "${order}"`)
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: first }, { command: second }] }))
    const t = await codexAgent({ homes: h })
    try {
      await t.agent.send(user('hi'))
      expect(await readFile(order, 'utf8')).toBe('first\nsecond\n')
      const hookEvents = t.types().filter((type) => type.startsWith('hook/'))
      expect(hookEvents).toEqual(['hook/invoked', 'hook/result', 'hook/invoked', 'hook/result'])
    } finally {
      await t.dispose()
    }
  })

  it('TL-33 hooks get tack’s environment unscrubbed: a *_TOKEN variable the bash tool would drop is visible', async () => {
    const h = await homes()
    process.env.TACK_CODEX_HOOK_TEST_TOKEN = 'visible-to-hooks'
    try {
      const hook = await script(
        h.work,
        'env.sh',
        `cat > /dev/null; echo "$TACK_CODEX_HOOK_TEST_TOKEN" > "${h.work}/env"`,
      )
      await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: hook }] }))
      const t = await codexAgent({ homes: h, script: [text('ok')] })
      try {
        await t.agent.send(user('hi'))
        expect((await readFile(join(h.work, 'env'), 'utf8')).trim()).toBe('visible-to-hooks')
      } finally {
        await t.dispose()
      }
    } finally {
      delete process.env.TACK_CODEX_HOOK_TEST_TOKEN
    }
  })
})
