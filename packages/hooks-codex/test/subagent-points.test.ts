// SubagentStart and SubagentStop (docs/decisions/0180-codex-subagent-points.md): real bash hooks capture
// their stdin; the payload fields, the `agent_type` matcher and the honoured outputs (SubagentStart
// context into the child, plain stdout too; SubagentStop block → the child continues, continue:false
// wins, plain stdout fails the hook) are checked through the real loop with a scripted model.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Agent } from '@tack/agent'
import { text, toolCalls } from '@tack/agent/testing'
import { SubagentPlugin } from '@tack/subagent'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import {
  captureHook,
  capturedLines,
  codexAgent,
  type Homes,
  homes,
  hookInvocations,
  hookResults,
  hooksJson,
  script,
  user,
  writeUserHooks,
  commonPayload,
} from './helpers.ts'

/** The texts of every message the model was sent in request `i`. */
function requestText(t: { model: { requests: readonly { messages: readonly unknown[] }[] } }, i: number) {
  return JSON.stringify(t.model.requests[i]?.messages ?? [])
}

interface Spawned {
  child?: Agent
}

/** Records the child the subagent tool creates. */
function watchChild(spawned: Spawned) {
  return (ctx: Context) => {
    ctx.on('subagent/start', (_parent, child) => {
      spawned.child = child
    })
  }
}

/** A parent that delegates `prompt` to one subagent; `answers`: the child's texts, then the parent's. */
function delegating(h: Homes, prompt: string, answers: readonly string[], setup?: (ctx: Context) => unknown) {
  return codexAgent({
    homes: h,
    plugins: [{ plugin: SubagentPlugin }],
    ...(setup ? { setup } : {}),
    script: [
      toolCalls([{ name: 'subagent', args: { description: 'child', prompt } }]),
      ...answers.map((answer) => text(answer)),
    ],
  })
}

describe('SubagentStart', () => {
  it('0180 fires on subagent/start with the child’s agent_id, agent_type default, the child’s turn, the parent’s transcript; plain stdout and JSON context reach the child’s first request', async () => {
    const h = await homes()
    const plain = await captureHook(h, 'start', 'echo "plain start context"')
    const json = await script(
      h.work,
      'json.sh',
      `cat > /dev/null; jq -n '{hookSpecificOutput: {hookEventName: "SubagentStart", additionalContext: "json start context"}}'`,
    )
    await writeUserHooks(
      h,
      hooksJson({ SubagentStart: [{ matcher: 'default', command: plain }, { command: json }] }),
    )
    const spawned: Spawned = {}
    const t = await delegating(h, 'list the files', ['child done', 'parent done'], watchChild(spawned))
    try {
      expect((await t.agent.send(user('delegate'))).reason).toEqual({ kind: 'completed' })
      const child = spawned.child as Agent
      const raw = await readFile(join(h.work, 'start.jsonl'), 'utf8')
      expect(raw.split('\n')[0]).toBe(JSON.stringify(JSON.parse(raw.split('\n')[0])))
      const [payload] = await capturedLines(h, 'start')
      expect(payload).toEqual({
        ...commonPayload(t, h, 'SubagentStart'),
        turn_id: `${child.session.id}:1`,
        agent_id: child.id,
        agent_type: 'default',
      })
      // The child's first request (the second the model got) carries both contexts before the task.
      const childRequest = requestText(t, 1)
      expect(childRequest).toContain('plain start context')
      expect(childRequest).toContain('json start context')
      expect(childRequest.indexOf('plain start context')).toBeLessThan(childRequest.indexOf('list the files'))
      expect(requestText(t, 0)).not.toContain('start context')
      // Logged in the parent's session, next to the subagent call.
      const callId = t.events().find((e) => e.type === 'tool/call')?.data as { callId?: string } | undefined
      expect(hookInvocations(t).map((i) => [i.point, i.toolCallId])).toEqual([
        ['SubagentStart', callId?.callId],
        ['SubagentStart', callId?.callId],
      ])
    } finally {
      await t.dispose()
    }
  })

  it('0180 the matcher tests agent_type: `default` and a regex run, another type does not', async () => {
    const h = await homes()
    const hit = await captureHook(h, 'hit')
    const regex = await captureHook(h, 'regex')
    const miss = await captureHook(h, 'miss')
    await writeUserHooks(
      h,
      hooksJson({
        SubagentStart: [
          { matcher: 'default', command: hit },
          { matcher: '^def', command: regex },
          { matcher: 'explorer|worker', command: miss },
        ],
      }),
    )
    const t = await delegating(h, 'go', ['child done', 'parent done'])
    try {
      await t.agent.send(user('delegate'))
      expect(await capturedLines(h, 'hit')).toHaveLength(1)
      expect(await capturedLines(h, 'regex')).toHaveLength(1)
      expect(await capturedLines(h, 'miss')).toHaveLength(0)
    } finally {
      await t.dispose()
    }
  })

  it('0180 cannot block: exit 2 fails the hook, continue:false is ignored; the child runs its task', async () => {
    const h = await homes()
    const exit2 = await script(h.work, 'exit2.sh', 'cat > /dev/null; echo "no" >&2; exit 2')
    const halt = await script(
      h.work,
      'halt.sh',
      `cat > /dev/null; echo '{"continue": false, "stopReason": "halt"}'`,
    )
    await writeUserHooks(h, hooksJson({ SubagentStart: [{ command: exit2 }, { command: halt }] }))
    const t = await delegating(h, 'go', ['child done', 'parent done'])
    try {
      expect((await t.agent.send(user('delegate'))).reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(3)
      expect(hookResults(t).map((r) => [r.point, r.decision, r.failed === true])).toEqual([
        ['SubagentStart', 'pass', true],
        ['SubagentStart', 'stop', false],
      ])
      const result = t.events().find((e) => e.type === 'tool/result')?.data as { content: { text: string }[] }
      expect(result.content[0].text).toBe('child done')
    } finally {
      await t.dispose()
    }
  })
})

describe('SubagentStop', () => {
  it('0180 fires when the child’s turn would end: agent_transcript_path holds the child’s answer, last_assistant_message, stop_hook_active; a block continues the child with the reason', async () => {
    const h = await homes()
    const marker = join(h.work, 'blocked-once')
    const hook = await captureHook(
      h,
      'stop',
      `f="${h.work}/stop.jsonl"; p=$(tail -n 2 "$f" | head -n 1); t=$(printf '%s' "$p" | jq -r .agent_transcript_path); grep -c 'child done' "$t" > "${h.work}/seen-in-transcript"
if [ ! -e "${marker}" ]; then touch "${marker}"; jq -n '{decision: "block", reason: "check the tests first"}'; fi`,
    )
    await writeUserHooks(h, hooksJson({ SubagentStop: [{ matcher: 'default', command: hook }] }))
    const spawned: Spawned = {}
    const t = await delegating(
      h,
      'go',
      ['child done', 'child really done', 'parent done'],
      watchChild(spawned),
    )
    try {
      expect((await t.agent.send(user('delegate'))).reason).toEqual({ kind: 'completed' })
      const child = spawned.child as Agent
      const payloads = await capturedLines(h, 'stop')
      expect(payloads).toHaveLength(2)
      expect(payloads[0]).toEqual({
        ...commonPayload(t, h, 'SubagentStop'),
        turn_id: `${child.session.id}:1`,
        agent_id: child.id,
        agent_type: 'default',
        agent_transcript_path: join(h.dataDir, 'codex-transcripts', `${child.session.id}.jsonl`),
        stop_hook_active: false,
        last_assistant_message: 'child done',
      })
      expect(payloads[1]).toMatchObject({
        stop_hook_active: true,
        last_assistant_message: 'child really done',
      })
      // The child's file already held its answer when the hook ran.
      expect(Number((await readFile(join(h.work, 'seen-in-transcript'), 'utf8')).trim())).toBeGreaterThan(0)
      // The block reached the child as its next prompt; the parent got the child's final answer.
      expect(requestText(t, 2)).toContain('check the tests first')
      const result = t.events().find((e) => e.type === 'tool/result')?.data as { content: { text: string }[] }
      expect(result.content[0].text).toBe('child really done')
      // The top-level agent's own turn end is Stop, not SubagentStop: no third run.
      expect(hookInvocations(t).map((i) => i.point)).toEqual(['SubagentStop', 'SubagentStop'])
    } finally {
      await t.dispose()
    }
  })

  it('0180 continue:false from any hook wins over a block; plain stdout fails the hook; exit 2 with stderr blocks', async () => {
    const h = await homes()
    const block = await script(
      h.work,
      'block.sh',
      `cat > /dev/null; echo '{"decision":"block","reason":"more"}'`,
    )
    const halt = await script(
      h.work,
      'halt.sh',
      `cat > /dev/null; echo '{"continue":false,"stopReason":"enough"}'`,
    )
    const plain = await script(h.work, 'plain.sh', 'cat > /dev/null; echo "not json"')
    await writeUserHooks(
      h,
      hooksJson({ SubagentStop: [{ command: block }, { command: halt }, { command: plain }] }),
    )
    const t = await delegating(h, 'go', ['child done', 'parent done'])
    try {
      expect((await t.agent.send(user('delegate'))).reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(3)
      expect(hookResults(t).map((r) => [r.decision, r.failed === true])).toEqual([
        ['block', false],
        ['stop', false],
        ['pass', true],
      ])
    } finally {
      await t.dispose()
    }

    const h2 = await homes()
    const marker = join(h2.work, 'once')
    const exit2 = await script(
      h2.work,
      'exit2.sh',
      `cat > /dev/null; if [ ! -e "${marker}" ]; then touch "${marker}"; echo "run the linter" >&2; exit 2; fi`,
    )
    const unmatched = await captureHook(h2, 'unmatched')
    await writeUserHooks(
      h2,
      hooksJson({ SubagentStop: [{ command: exit2 }, { matcher: 'reviewer', command: unmatched }] }),
    )
    const t2 = await delegating(h2, 'go', ['child done', 'child linted', 'parent done'])
    try {
      await t2.agent.send(user('delegate'))
      expect(requestText(t2, 2)).toContain('run the linter')
      expect(await capturedLines(h2, 'unmatched')).toHaveLength(0)
    } finally {
      await t2.dispose()
    }
  })
})
