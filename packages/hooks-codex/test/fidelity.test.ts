// Issue 11.6: what a Codex hook reads in tack is what it reads in Codex 0.171 (protocols.md §B.3).
// A realistic session (Bash, read, edit and write through apply_patch, a subagent's start, Bash and
// stop, Stop) runs
// real hook processes that record their stdin; each payload is compared key by key with the reference
// shape of its event, values normalised where they are ids or paths. (transcript.test.ts has hooks
// read `transcript_path`.)
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { everyEventSession, homes, user } from './helpers.ts'

type Payload = Record<string, unknown>

/** Fields whose values are ids, paths or names: compared by type, their values checked separately. */
const OPAQUE = new Set([
  'session_id',
  'turn_id',
  'tool_use_id',
  'transcript_path',
  'cwd',
  'model',
  'agent_id',
  'agent_transcript_path',
])
const normalise = (p: Payload): Payload =>
  Object.fromEntries(
    Object.entries(p).map(([k, v]) => [k, OPAQUE.has(k) && typeof v === 'string' ? `<${k}>` : v]),
  )

/** Codex's common fields (§B.3): every event; `turn_id` on turn-scoped ones. */
const COMMON = {
  session_id: '<session_id>',
  transcript_path: '<transcript_path>',
  cwd: '<cwd>',
  model: '<model>',
  permission_mode: 'bypassPermissions',
}
const TURN = { ...COMMON, turn_id: '<turn_id>' }
const tool = (name: string, input: unknown) => ({
  tool_name: name,
  tool_use_id: '<tool_use_id>',
  tool_input: input,
})
const CHILD = { agent_id: '<agent_id>', agent_type: 'default' }

const EDIT_PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n a\n-b\n+B\n*** End Patch'
const ADD_PATCH = '*** Begin Patch\n*** Add File: new.txt\n+n\n*** End Patch'

/** The reference shape of each payload of the session, in order. */
const REFERENCE: Payload[] = [
  { ...COMMON, hook_event_name: 'SessionStart', source: 'startup' },
  { ...TURN, hook_event_name: 'UserPromptSubmit', prompt: 'do everything' },
  { ...TURN, hook_event_name: 'PreToolUse', ...tool('Bash', { command: 'echo hi' }) },
  { ...TURN, hook_event_name: 'PostToolUse', ...tool('Bash', { command: 'echo hi' }), tool_response: 'hi\n' },
  { ...TURN, hook_event_name: 'PreToolUse', ...tool('read', { file_path: 'notes.txt' }) },
  {
    ...TURN,
    hook_event_name: 'PostToolUse',
    ...tool('read', { file_path: 'notes.txt' }),
    tool_response: expect.stringContaining('b'),
  },
  { ...TURN, hook_event_name: 'PreToolUse', ...tool('apply_patch', { command: EDIT_PATCH }) },
  {
    ...TURN,
    hook_event_name: 'PostToolUse',
    ...tool('apply_patch', { command: EDIT_PATCH }),
    tool_response: expect.any(String),
  },
  { ...TURN, hook_event_name: 'PreToolUse', ...tool('apply_patch', { command: ADD_PATCH }) },
  {
    ...TURN,
    hook_event_name: 'PostToolUse',
    ...tool('apply_patch', { command: ADD_PATCH }),
    tool_response: expect.any(String),
  },
  {
    ...TURN,
    hook_event_name: 'PreToolUse',
    ...tool('subagent', expect.objectContaining({ prompt: 'run ls' })),
  },
  { ...TURN, ...CHILD, hook_event_name: 'SubagentStart' },
  { ...TURN, ...CHILD, hook_event_name: 'PreToolUse', ...tool('Bash', { command: 'ls' }) },
  {
    ...TURN,
    ...CHILD,
    hook_event_name: 'PostToolUse',
    ...tool('Bash', { command: 'ls' }),
    tool_response: 'new.txt\nnotes.txt\n',
  },
  {
    ...TURN,
    ...CHILD,
    hook_event_name: 'SubagentStop',
    agent_transcript_path: '<agent_transcript_path>',
    stop_hook_active: false,
    last_assistant_message: 'child done',
  },
  {
    ...TURN,
    hook_event_name: 'PostToolUse',
    ...tool('subagent', expect.objectContaining({ prompt: 'run ls' })),
    tool_response: expect.stringContaining('child done'),
  },
  {
    ...TURN,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'all done',
  },
]

describe('issue 11.6 Codex payload fidelity', () => {
  it('11.6 every event of a realistic session matches Codex’s reference shape key by key', async () => {
    const h = await homes()
    const session = await everyEventSession(h)
    const t = session.t
    try {
      expect((await t.agent.send(user('do everything'))).reason).toEqual({ kind: 'completed' })
      const payloads: Payload[] = (await session.payloads()).map((raw) => JSON.parse(raw))
      expect(payloads.map(normalise)).toEqual(REFERENCE)
      for (const [i, p] of payloads.entries()) {
        expect(Object.keys(p).sort(), String(i)).toEqual(Object.keys(REFERENCE[i]).sort())
      }

      // The opaque values, checked for what they must be.
      const id = t.agent.session.id
      const child = payloads.find((p) => p.agent_id && p.tool_name)
      const subagentPoints = payloads.filter((p) => String(p.hook_event_name).startsWith('Subagent'))
      for (const p of payloads) {
        expect(p.session_id).toBe(id)
        expect(p.cwd).toBe(h.workspace)
        expect(p.model).toBe('scripted/test')
        if (p.agent_id) continue
        expect(p.transcript_path).toBe(join(h.dataDir, 'codex-transcripts', `${id}.jsonl`))
        if (p.turn_id) expect(p.turn_id).toBe(`${id}:1`)
      }
      // A subagent's hooks name its own thread's file and turn, as Codex's do.
      expect(child?.transcript_path).toMatch(/codex-transcripts\/.+\.jsonl$/)
      expect(child?.transcript_path).not.toBe(payloads[0].transcript_path)
      // SubagentStart/Stop name the spawning thread's file, the child's own as agent_transcript_path, the
      // child's turn and id (docs/decisions/0180-codex-subagent-points.md).
      for (const p of subagentPoints) {
        expect(p.transcript_path).toBe(payloads[0].transcript_path)
        expect(p.turn_id).toBe(child?.turn_id)
        expect(p.agent_id).toBe(child?.agent_id)
      }
      expect(subagentPoints[1].agent_transcript_path).toBe(child?.transcript_path)
      // One call id shared by each Pre/Post pair, and six calls in all.
      for (const [pre, post] of [
        [2, 3],
        [4, 5],
        [6, 7],
        [8, 9],
        [10, 15],
        [12, 13],
      ]) {
        expect(payloads[post].tool_use_id).toBe(payloads[pre].tool_use_id)
      }
      expect(new Set(payloads.map((p) => p.tool_use_id).filter(Boolean)).size).toBe(6)
    } finally {
      await t.dispose()
    }
  })
})
