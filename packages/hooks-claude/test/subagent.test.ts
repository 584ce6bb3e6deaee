// B3 SubagentStart / SubagentStop, B8 agent_id inside subagents, B9 the subagent transcript, B10 gating.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { SubagentPlugin } from '@tack/subagent'
import { describe, expect, it } from 'vitest'
import { bridgeAgent, prompt, readJson, requestText } from './helpers.ts'

describe('B3 subagent points', () => {
  it('B3 B10 SubagentStart context reaches the child first request; SubagentStop sees the child transcript and answer', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        SubagentStart: [
          {
            matcher: 'general-purpose',
            hooks: [
              {
                type: 'command',
                command:
                  'cat > sub-start.json; sleep 0.5; echo \'{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"child rules"}}\'',
              },
            ],
          },
        ],
        SubagentStop: [
          {
            matcher: 'general-purpose',
            hooks: [
              {
                type: 'command',
                command:
                  'input=$(cat); echo "$input" > sub-stop.json; tp=$(echo "$input" | jq -r .agent_transcript_path); grep \'"role":"assistant"\' "$tp" | tail -1 | jq -r \'.message.content[0].text\' > child-final.txt',
              },
            ],
          },
        ],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat >> pre.jsonl' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'cat >> stop.jsonl' }] }],
      },
      plugins: [{ plugin: SubagentPlugin }],
      script: [
        toolCalls([{ name: 'subagent', args: { description: 'inspect', prompt: 'look around' } }]),
        toolCalls([{ name: 'bash', args: { command: 'echo child-call' } }]),
        text('child report'),
        text('parent done'),
      ],
    })
    try {
      await t.agent.send(prompt('delegate'))
      // SubagentStop is detached (observe only): wait for its result before reading what it wrote.
      while (!t.of('hook/result').some((e) => e.data.point === 'SubagentStop'))
        await new Promise((r) => setTimeout(r, 10))
      const childFirst = requestText(t.model.requests[1])
      expect(childFirst).toContain('SubagentStart hook additional context: child rules')
      const start = await readJson(join(t.cwd, 'sub-start.json'))
      const childId = start.agent_id as string
      expect(start).toMatchObject({
        hook_event_name: 'SubagentStart',
        session_id: t.agent.session.id,
        transcript_path: t.transcriptPath(),
        agent_type: 'general-purpose',
      })
      expect(childId).not.toBe(t.agent.session.id)
      const stop = await readJson(join(t.cwd, 'sub-stop.json'))
      expect(stop).toMatchObject({
        hook_event_name: 'SubagentStop',
        agent_id: childId,
        agent_type: 'general-purpose',
        stop_hook_active: false,
        last_assistant_message: 'child report',
        agent_transcript_path: join(
          t.dataDir,
          'claude-transcripts',
          t.agent.session.id,
          'subagents',
          `agent-${childId}.jsonl`,
        ),
      })
      expect((await readFile(join(t.cwd, 'child-final.txt'), 'utf8')).trim()).toBe('child report')
      const childLines = (await readFile(stop.agent_transcript_path as string, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      expect(
        childLines.every(
          (l) => l.isSidechain === true && l.agentId === childId && l.sessionId === t.agent.session.id,
        ),
      ).toBe(true)
      // The child's tool call fired PreToolUse with the child's agent_id; Stop fired only for the parent.
      const pre = JSON.parse((await readFile(join(t.cwd, 'pre.jsonl'), 'utf8')).trim())
      expect(pre).toMatchObject({
        agent_id: childId,
        agent_type: 'general-purpose',
        session_id: t.agent.session.id,
        tool_name: 'Bash',
      })
      const stops = (await readFile(join(t.cwd, 'stop.jsonl'), 'utf8')).trim().split('\n')
      expect(stops).toHaveLength(1)
      expect(JSON.parse(stops[0]).agent_id).toBeUndefined()
      // Subagent points are logged in the parent's session, next to the call.
      expect(t.of('hook/invoked').map((e) => [e.data.point, e.data.toolCallId])).toEqual([
        ['SubagentStart', 'call_1'],
        ['SubagentStop', 'call_1'],
        ['Stop', undefined],
      ])
    } finally {
      await t.dispose()
    }
  })

  it('B3 a SubagentStart matcher for another agent type does not run', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        SubagentStart: [{ matcher: 'code-reviewer', hooks: [{ type: 'command', command: 'touch ran' }] }],
      },
      plugins: [{ plugin: SubagentPlugin }],
      script: [
        toolCalls([{ name: 'subagent', args: { description: 'd', prompt: 'p' } }]),
        text('child'),
        text('done'),
      ],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(t.of('hook/invoked')).toEqual([])
    } finally {
      await t.dispose()
    }
  })
})
