// Issue 11.6: `transcript_path` names a readable Codex-rollout-shaped export of the session
// (README "Transcript"), brought up to date before each hook runs. Real hooks read it with jq.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Agent } from '@tack/agent'
import { text, toolCalls } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import { createRolloutFiles } from '../src/transcripts.ts'
import { codexAgent, homes, hooksJson, script, user, writeUserHooks } from './helpers.ts'

type Line = { timestamp: string; type: string; payload: Record<string, unknown> }
const lines = async (path: string): Promise<Line[]> =>
  (await readFile(path, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))

describe('transcript_path', () => {
  it('11.6 hooks read the session so far from transcript_path: prompt, context, calls, results, answers', async () => {
    const h = await homes()
    // Each hook copies the file as it finds it; the Stop hook also reads the last prompt with jq, as
    // real-world Codex hooks read their rollout.
    const copy = (name: string) =>
      script(
        h.work,
        `${name}.sh`,
        [
          'input=$(cat)',
          `path=$(printf '%s' "$input" | jq -r .transcript_path)`,
          `cp "$path" '${h.work}/${name}.jsonl'`,
          `printf '%s' "$input" > '${h.work}/${name}.json'`,
          name === 'stop'
            ? `jq -r 'select(.type=="response_item" and .payload.type=="message" and .payload.role=="user") | .payload.content[0].text' "$path" | tail -1 > '${h.work}/last-prompt'`
            : '',
        ].join('\n'),
      )
    await writeUserHooks(
      h,
      hooksJson({
        SessionStart: [{ command: `cat >/dev/null; echo 'repo uses pnpm'` }],
        PreToolUse: [{ matcher: 'Bash', command: await copy('pre') }],
        Stop: [{ command: await copy('stop') }],
      }),
    )
    const t = await codexAgent({
      homes: h,
      script: [toolCalls([{ name: 'bash', args: { command: 'echo hi' } }]), text('said hi')],
    })
    try {
      expect((await t.agent.send(user('say hi'))).reason).toEqual({ kind: 'completed' })
      const id = t.agent.session.id
      const pre = await lines(join(h.work, 'pre.jsonl'))
      const prePayload = JSON.parse(await readFile(join(h.work, 'pre.json'), 'utf8'))
      expect(pre[0]).toMatchObject({
        type: 'session_meta',
        payload: { id, cwd: h.workspace, originator: 'tack' },
      })
      for (const l of pre) expect(Date.parse(l.timestamp)).not.toBeNaN()
      const items = (ls: Line[]) => ls.filter((l) => l.type === 'response_item').map((l) => l.payload)
      // At PreToolUse the call is there, its output is not yet.
      expect(items(pre)).toEqual([
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'repo uses pnpm' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'say hi' }] },
        {
          type: 'function_call',
          name: 'Bash',
          arguments: JSON.stringify({ command: 'echo hi' }),
          call_id: prePayload.tool_use_id,
        },
      ])
      expect(pre).toContainEqual(
        expect.objectContaining({
          type: 'turn_context',
          payload: { turn_id: prePayload.turn_id, cwd: h.workspace },
        }),
      )

      const stop = await lines(join(h.work, 'stop.jsonl'))
      // The Stop hook's file extends the PreToolUse one: appended, never rewritten.
      expect(stop.slice(0, pre.length)).toEqual(pre)
      expect(items(stop).slice(3)).toEqual([
        {
          type: 'function_call_output',
          call_id: prePayload.tool_use_id,
          output: expect.stringContaining('hi'),
        },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'said hi' }] },
      ])
      expect(stop.at(-1)).toMatchObject({
        type: 'event_msg',
        payload: { type: 'agent_message', message: 'said hi' },
      })
      expect((await readFile(join(h.work, 'last-prompt'), 'utf8')).trim()).toBe('say hi')
      const stopPayload = JSON.parse(await readFile(join(h.work, 'stop.json'), 'utf8'))
      expect(stopPayload.transcript_path).toBe(join(h.dataDir, 'codex-transcripts', `${id}.jsonl`))
    } finally {
      await t.dispose()
    }
  })

  it('11.6 a folder that cannot be written is warned once, and the hook runs without the file', async () => {
    const h = await homes()
    const blocker = join(h.work, 'not-a-folder')
    await writeFile(blocker, 'x')
    const warnings: string[] = []
    const dir = join(blocker, 'sub')
    const files = createRolloutFiles(
      dir,
      () => undefined,
      (m) => warnings.push(m),
    )
    const captured = join(h.work, 'ran')
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: `cat > '${captured}'` }] }))
    const t = await codexAgent({ homes: h, script: [text('ok')], config: { transcriptDir: dir } })
    try {
      const agent = t.agent as Agent
      files.sync(agent)
      files.sync(agent)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(files.path(agent))
      expect(warnings[0]).toContain('transcript_path')
      // Through the plugin the same fault cannot stop a hook: it runs with the path it was given.
      expect((await t.agent.send(user('hi'))).reason).toEqual({ kind: 'completed' })
      const payload = JSON.parse(await readFile(captured, 'utf8'))
      expect(payload.hook_event_name).toBe('UserPromptSubmit')
      expect(payload.transcript_path).toBe(files.path(agent))
    } finally {
      await t.dispose()
    }
  })
})
