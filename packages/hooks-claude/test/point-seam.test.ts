// B3 the hooks-claude/point waterfall around each point's run; B6 async hooks, systemMessage and
// unsupported fields.
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { MergedHookOutcome } from '@tack/hook-protocol'
import { text, toolCalls } from '@tack/agent/testing'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import type { ClaudePayload, ClaudePoint } from '../src/index.ts'
import { bridgeAgent, hook, prompt } from './helpers.ts'

describe('B3 hooks-claude/point', () => {
  it('B3 the seam is raised for every point even with no sources, with the Claude payload', async () => {
    const seen: Array<[ClaudePoint, ClaudePayload]> = []
    const spy = (ctx: Context) => {
      ctx.on(
        'hooks-claude/point',
        (point: ClaudePoint, payload: ClaudePayload, next: () => Promise<MergedHookOutcome>) => {
          seen.push([point, payload])
          return next()
        },
      )
    }
    const t = await bridgeAgent({
      plugins: [spy],
      script: [toolCalls([{ name: 'bash', args: { command: 'echo x' } }]), text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(seen.map(([p]) => p)).toEqual([
        'SessionStart',
        'UserPromptSubmit',
        'PreToolUse',
        'PostToolUse',
        'PostToolBatch',
        'Stop',
      ])
      expect(seen[2][1]).toMatchObject({
        tool_name: 'Bash',
        tool_input: { command: 'echo x' },
        tool_use_id: 'call_1',
      })
      expect(t.of('hook/invoked')).toEqual([])
    } finally {
      await t.dispose()
    }
  })

  it('B3 a listener answering without next() decides instead of the settings hooks (which never run)', async () => {
    const denyAll = (ctx: Context) => {
      ctx.on(
        'hooks-claude/point',
        (point: ClaudePoint, _p: ClaudePayload, next: () => Promise<MergedHookOutcome>) =>
          point === 'PreToolUse'
            ? {
                decision: 'deny',
                reason: 'mod says no',
                contexts: [],
                systemMessages: [],
                plainStdout: [],
                failed: 0,
              }
            : next(),
      )
    }
    const t = await bridgeAgent({
      projectHooks: hook(
        'PreToolUse',
        'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\' ; touch hook-ran',
      ),
      plugins: [denyAll],
      script: [toolCalls([{ name: 'bash', args: { command: 'touch ran' } }]), text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(existsSync(join(t.cwd, 'hook-ran'))).toBe(false)
      expect(existsSync(join(t.cwd, 'ran'))).toBe(false)
      expect(t.of('tool/result')[0].data.content[0].text).toBe('PreToolUse:Bash hook error: mod says no')
    } finally {
      await t.dispose()
    }
  })
})

describe('B6 other fields', () => {
  it('B6 async: true runs detached, its decision is ignored, its context joins the next prompt', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'PostToolUse',
        'while [ ! -f release ]; do sleep 0.02; done; echo \'{"decision":"block","reason":"ignored","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"async lint: 2 warnings"}}\'',
        { async: true },
      ),
      script: [
        toolCalls([{ name: 'bash', args: { command: 'echo built' } }]),
        text('first done'),
        text('second'),
      ],
    })
    try {
      await t.agent.send(prompt('build'))
      expect(t.of('tool/result')[0].data).toMatchObject({ isError: false })
      expect(t.requestTexts()[1]).not.toContain('async lint')
      await writeFile(join(t.cwd, 'release'), '')
      while (t.of('context/message').length === 0) await new Promise((r) => setTimeout(r, 10))
      await t.agent.send(prompt('next'))
      expect(t.requestTexts()[2]).toContain('PostToolUse hook additional context: async lint: 2 warnings')
    } finally {
      await t.dispose()
    }
  })

  it('B6 systemMessage goes to the user through hook/result, never to the model; unknown fields are warned once', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'UserPromptSubmit',
        'echo \'{"systemMessage":"Heads up: CI is red","sessionTitle":"x"}\'',
      ),
      script: [text('ok'), text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      await t.agent.send(prompt('again'))
      expect(t.of('hook/result').map((e) => e.data.systemMessage)).toEqual([
        'Heads up: CI is red',
        'Heads up: CI is red',
      ])
      expect(t.requestTexts().join('\n')).not.toContain('Heads up')
      expect(t.warnings().filter((w) => w.includes('sessionTitle'))).toHaveLength(1)
    } finally {
      await t.dispose()
    }
  })
})
