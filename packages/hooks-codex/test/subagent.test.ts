// Hooks inside a subagent: tool points fire with the top-level session id plus agent_id/agent_type
// (as Codex's thread-spawned agents do); SessionStart, UserPromptSubmit and Stop stay the top-level
// agent's (a child's start and end are Codex's SubagentStart/SubagentStop, not run by this bridge).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { SubagentPlugin } from '@tack/subagent'
import { describe, expect, it } from 'vitest'
import { codexAgent, homes, hookInvocations, hooksJson, script, user, writeUserHooks } from './helpers.ts'

describe('subagents', () => {
  it('C4 a child’s tool payload carries the parent session id, agent_id = the child, agent_type default, the child’s turn', async () => {
    const h = await homes()
    const capture = await script(
      h.work,
      'capture.sh',
      `cat >> "${h.work}/calls.jsonl"; echo >> "${h.work}/calls.jsonl"`,
    )
    await writeUserHooks(
      h,
      hooksJson({
        PreToolUse: [{ matcher: 'Bash', command: capture }],
        UserPromptSubmit: [{ command: 'cat > /dev/null' }],
        Stop: [{ command: 'cat > /dev/null' }],
      }),
    )
    let childId = ''
    let childSession = ''
    let childPoints: () => string[] = () => []
    const t = await codexAgent({
      homes: h,
      plugins: [{ plugin: SubagentPlugin }],
      setup: (ctx) => {
        ctx.on('subagent/start', (_parent, child) => {
          childId = child.id
          childSession = child.session.id
          childPoints = () =>
            child.session
              .events()
              .filter((e) => e.type === 'hook/invoked')
              .map((e) => (e.data as { point: string }).point)
        })
      },
      script: [
        toolCalls([{ name: 'subagent', args: { description: 'child', prompt: 'list' } }]),
        toolCalls([{ name: 'bash', args: { command: 'true' } }]),
        text('child done'),
        text('parent done'),
      ],
    })
    try {
      await t.agent.send(user('delegate'))
      const payload = JSON.parse((await readFile(join(h.work, 'calls.jsonl'), 'utf8')).trim())
      expect(payload).toMatchObject({
        session_id: t.agent.session.id,
        agent_id: childId,
        agent_type: 'default',
        turn_id: `${childSession}:1`,
        tool_name: 'Bash',
      })
      // UserPromptSubmit and Stop run for the parent only; the child's log has its tool hook alone.
      expect(hookInvocations(t).map((i) => i.point)).toEqual(['UserPromptSubmit', 'Stop'])
      expect(childPoints()).toEqual(['PreToolUse'])
    } finally {
      await t.dispose()
    }
  })
})
