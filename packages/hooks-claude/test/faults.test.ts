// R2 through the real loop: hooks that hang, fork children, flood stdout, print invalid JSON or binary,
// or exit 1/2/127 or by signal — the session continues as the protocol says, nothing is left behind,
// output is bounded.
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import { HOOK_TEXT_MAX_CHARS } from '../src/index.ts'
import { alive, bridgeAgent, hook, prompt } from './helpers.ts'

describe('R2 faulty hooks in a session', () => {
  it('R2 A2 a hanging PreToolUse hook times out: its group is killed and the call proceeds (fails open)', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('PreToolUse', 'echo $$ > hook.pid; sleep 60 & echo $! > child.pid; wait', {
        timeout: 1,
      }),
      script: [toolCalls([{ name: 'bash', args: { command: 'echo ran' } }]), text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(t.of('tool/result')[0].data).toMatchObject({ isError: false, content: [{ text: 'ran' }] })
      expect(t.of('hook/result')[0].data).toMatchObject({ timedOut: true, failed: true, decision: 'pass' })
      for (const f of ['hook.pid', 'child.pid']) {
        expect(await alive(Number((await readFile(join(t.cwd, f), 'utf8')).trim()))).toBe(false)
      }
    } finally {
      await t.dispose()
    }
  })

  it('R2 a hook that forks a background child: the child is gone when the hook returns', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('UserPromptSubmit', '(sleep 60; touch late) & echo $! > child.pid; echo "ctx"'),
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(await alive(Number((await readFile(join(t.cwd, 'child.pid'), 'utf8')).trim()))).toBe(false)
      expect(t.requestTexts()[0]).toContain('UserPromptSubmit hook success: ctx')
    } finally {
      await t.dispose()
    }
  })

  it('R2 a flood of stdout is bounded: context is cut to a preview and the full text spilled to a file', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('UserPromptSubmit', 'head -c 300000 /dev/zero | tr "\\0" x'),
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      const context = t.of('context/message')[0].data.content[0].text ?? ''
      expect(context.length).toBeLessThan(HOOK_TEXT_MAX_CHARS)
      const spilled = /saved in full to (\S+)\]/.exec(context)?.[1]
      expect(spilled).toBeDefined()
      expect((await readFile(spilled!, 'utf8')).length).toBe(300000)
      expect((await readdir(join(t.dataDir, 'claude-hook-output'))).length).toBe(1)
    } finally {
      await t.dispose()
    }
  })

  it('R2 invalid JSON is plain text; binary output does not break the log; exit 1, 127 and a signal fail open', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: 'printf \'{"decision": "block"\'' },
              {
                type: 'command',
                command: "printf '\\x00\\xff\\xfe binary' >&2; printf '\\xc3\\x28'; exit 1",
              },
              { type: 'command', command: 'no-such-command-xyz' },
              { type: 'command', command: 'kill -KILL $$' },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'echo "{not json" ; exit 1' }] }],
      },
      script: [toolCalls([{ name: 'bash', args: { command: 'touch ran' } }]), text('ok')],
    })
    try {
      expect((await t.agent.send(prompt('go'))).reason).toEqual({ kind: 'completed' })
      expect(existsSync(join(t.cwd, 'ran'))).toBe(true)
      expect(t.of('hook/result').map((e) => [e.data.decision, e.data.exitCode, e.data.failed])).toEqual([
        ['pass', 0, undefined],
        ['pass', 1, true],
        ['pass', 127, true],
        ['pass', undefined, true],
        ['pass', 1, true],
      ])
      expect(t.of('hook/result')[1].data.stderrSummary).toContain('binary')
      expect(t.model.requests).toHaveLength(2)
    } finally {
      await t.dispose()
    }
  })

  it('R2 exit 2 on PostToolUse and Stop behaves as the protocol says (block with stderr)', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        PostToolUse: [{ hooks: [{ type: 'command', command: 'echo "post says no" >&2; exit 2' }] }],
        Stop: [
          {
            hooks: [
              { type: 'command', command: '[ -f once ] && exit 0; touch once; echo "not yet" >&2; exit 2' },
            ],
          },
        ],
      },
      script: [toolCalls([{ name: 'bash', args: { command: 'echo out' } }]), text('first'), text('second')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(t.of('tool/result')[0].data).toMatchObject({ isError: true, error: { code: 'BLOCKED' } })
      expect(t.of('steering/message').map((e) => e.data.content[0].text)).toEqual([
        'Stop hook feedback:\nnot yet',
      ])
    } finally {
      await t.dispose()
    }
  })

  it('R2 A7 stderrSummaryMaxChars bounds the logged stderr', async () => {
    const t = await bridgeAgent({
      bridge: { stderrSummaryMaxChars: 20 },
      projectHooks: hook('UserPromptSubmit', 'head -c 600 /dev/zero | tr "\\0" e >&2; exit 1'),
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(t.of('hook/result')[0].data.stderrSummary).toBe(`${'e'.repeat(20)}…`)
    } finally {
      await t.dispose()
    }
  })
})
