// B3 UserPromptSubmit and B5 context folding through next().
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Agent, Prompt, PromptDecision } from '@tack/agent'
import { text } from '@tack/agent/testing'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { alive, bridgeAgent, hook, prompt, readJson } from './helpers.ts'

describe('B3 UserPromptSubmit', () => {
  it('B3 a hook that injects context (plain stdout and JSON) with the prompt in its payload', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        UserPromptSubmit: [
          {
            hooks: [
              { type: 'command', command: 'cat > ups.json; echo "Current branch: main"' },
              {
                type: 'command',
                command:
                  'jq -c \'{hookSpecificOutput:{hookEventName:"UserPromptSubmit",additionalContext:("You asked: " + .prompt)}}\'',
              },
            ],
          },
        ],
      },
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('fix the bug'))
      const request = t.requestTexts()[0]
      expect(request).toContain('UserPromptSubmit hook success: Current branch: main')
      expect(request).toContain('UserPromptSubmit hook additional context: You asked: fix the bug')
      expect(t.types().slice(0, 9)).toEqual([
        'turn/start',
        'hook/invoked',
        'hook/result',
        'hook/invoked',
        'hook/result',
        'user/message',
        'context/message',
        'context/message',
        'step/start',
      ])
      expect(await readJson(join(t.cwd, 'ups.json'))).toMatchObject({
        hook_event_name: 'UserPromptSubmit',
        prompt: 'fix the bug',
        session_id: t.agent.session.id,
        permission_mode: 'default',
      })
    } finally {
      await t.dispose()
    }
  })

  it('B3 a hook that blocks (exit 2): the prompt is recorded blocked with the reason, no model request', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'UserPromptSubmit',
        'grep -q password && { echo "prompts must not contain secrets" >&2; exit 2; }; exit 0',
      ),
    })
    try {
      const outcome = await t.agent.send(prompt('my password is hunter2'))
      expect(outcome.reason).toEqual({ kind: 'rejected', reason: 'prompts must not contain secrets' })
      expect(t.model.requests).toHaveLength(0)
      expect(t.of('prompt/blocked').map((e) => e.data.reason)).toEqual(['prompts must not contain secrets'])
      expect(t.of('user/message')).toEqual([])
    } finally {
      await t.dispose()
    }
  })

  it('B3 JSON block and continue:false block too (stopReason as the reason); context of a blocked prompt is dropped', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'UserPromptSubmit',
        'if grep -q stop; then echo \'{"continue":false,"stopReason":"halted by policy"}\'; else echo \'{"decision":"block","reason":"not today","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}\'; fi',
      ),
    })
    try {
      expect((await t.agent.send(prompt('please'))).reason).toEqual({ kind: 'rejected', reason: 'not today' })
      expect((await t.agent.send(prompt('stop now'))).reason).toEqual({
        kind: 'rejected',
        reason: 'halted by policy',
      })
      expect(t.of('context/message')).toEqual([])
      expect(t.of('hook/result').map((e) => e.data.decision)).toEqual(['block', 'stop'])
    } finally {
      await t.dispose()
    }
  })
})

describe('B3 B10 cancel', () => {
  const waitFor = async (path: string) => {
    while (!existsSync(path)) await new Promise((r) => setTimeout(r, 10))
  }

  it('B3 cancelling the turn kills a running UserPromptSubmit hook; the turn ends aborted', async () => {
    const t = await bridgeAgent({ projectHooks: hook('UserPromptSubmit', 'echo $$ > pid; exec sleep 600') })
    try {
      const outcome = t.agent.send(prompt('go'))
      await waitFor(join(t.cwd, 'pid'))
      t.agent.cancel()
      expect((await outcome).reason).toEqual({ kind: 'aborted' })
      // The loop does not wait for the killed run (docs/decisions/0195-cancel-during-admission.md); it is
      // gone well before the agent's disposal would kill it.
      const pid = Number((await readFile(join(t.cwd, 'pid'), 'utf8')).trim())
      const deadline = Date.now() + 2000
      while ((await alive(pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(await alive(pid)).toBe(false)
      expect(t.model.requests).toHaveLength(0)
    } finally {
      await t.dispose()
    }
  })

  it('B10 cancel cuts the wait for a pending SessionStart chain', async () => {
    const t = await bridgeAgent({ projectHooks: hook('SessionStart', 'echo $$ > pid; exec sleep 600') })
    try {
      await waitFor(join(t.cwd, 'pid'))
      const outcome = t.agent.send(prompt('go'))
      while (t.agent.turnSignal === undefined) await new Promise((r) => setTimeout(r, 10))
      t.agent.cancel()
      expect((await outcome).reason).toEqual({ kind: 'aborted' })
      expect(t.model.requests).toHaveLength(0)
    } finally {
      await t.dispose()
    }
  })
})

describe('B5 context folds through next()', () => {
  const downstream =
    (decide: (prompt: Prompt) => PromptDecision) =>
    (ctx: Context): void => {
      ctx.on('agent/prompt-submit', async (_agent: Agent, p: Prompt, next: () => Promise<PromptDecision>) => {
        await next()
        return decide(p)
      })
    }

  it('B5 a later listener can still block a prompt that only got context, carrying the context', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('UserPromptSubmit', 'echo "hook context"'),
      plugins: [downstream(() => ({ action: 'block', reason: 'later listener says no' }))],
    })
    try {
      const outcome = await t.agent.send(prompt('hello'))
      expect(outcome.reason).toEqual({ kind: 'rejected', reason: 'later listener says no' })
      expect(t.of('context/message').map((e) => e.data.content[0].text)).toEqual([
        'UserPromptSubmit hook success: hook context',
      ])
    } finally {
      await t.dispose()
    }
  })

  it('B5 both contexts survive and a downstream rewrite is kept; the source is hooks-claude', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('UserPromptSubmit', 'echo "hook context"'),
      plugins: [
        downstream(() => ({
          action: 'allow',
          content: 'rewritten prompt',
          additionalContext: [{ content: 'plugin context', source: { kind: 'plugin', name: 'other' } }],
        })),
      ],
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('original'))
      expect(t.of('user/message').map((e) => e.data.content[0].text)).toEqual(['rewritten prompt'])
      expect(t.of('context/message').map((e) => [e.data.source, e.data.content[0].text])).toEqual([
        [{ kind: 'plugin', name: 'hooks-claude' }, 'UserPromptSubmit hook success: hook context'],
        [{ kind: 'plugin', name: 'other' }, 'plugin context'],
      ])
    } finally {
      await t.dispose()
    }
  })
})
