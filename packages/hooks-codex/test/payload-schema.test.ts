// C4: the payloads real hooks receive, captured byte for byte from a session that passes every point
// (and a subagent's tool call), validate against JSON Schemas of Codex's hook inputs written in
// `fixtures/codex-hook-input/` from the facts of protocols.md §B.3; each is compact JSON with no
// trailing newline.
import { describe, expect, it } from 'vitest'
import type { CodexPoint } from '../src/events.ts'
import { everyEventSession, homes, user } from './helpers.ts'
import { codexInputValidators } from './schemas.ts'

const validators = codexInputValidators

describe('payloads against the Codex input schemas', () => {
  it('C4 every point’s payload validates, is compact JSON without a trailing newline, and carries turn_id where turn-scoped', async () => {
    const { t, payloads } = await everyEventSession(await homes())
    try {
      expect((await t.agent.send(user('do everything'))).reason).toEqual({ kind: 'completed' })
      const check = await validators()
      const seen: string[] = []
      for (const [file, raw] of (await payloads()).entries()) {
        expect(raw.endsWith('\n')).toBe(false)
        const payload = JSON.parse(raw) as Record<string, unknown>
        expect(raw).toBe(JSON.stringify(payload))
        const event = String(payload.hook_event_name)
        const validate = check[event as CodexPoint]
        expect(validate, `a schema for ${event}`).toBeDefined()
        const ok = validate(payload)
        expect(validate.errors ?? [], `${file}: ${raw}`).toEqual([])
        expect(ok).toBe(true)
        expect(payload.session_id).toBe(t.agent.session.id)
        expect(payload.permission_mode).toBe('bypassPermissions')
        expect(payload.model).toBe('scripted/test')
        seen.push(
          `${event}:${payload.tool_name ?? ''}${payload.agent_id && payload.tool_name ? ':child' : ''}`,
        )
      }
      expect(seen).toEqual([
        'SessionStart:',
        'UserPromptSubmit:',
        'PreToolUse:Bash',
        'PostToolUse:Bash',
        'PreToolUse:read',
        'PostToolUse:read',
        'PreToolUse:apply_patch',
        'PostToolUse:apply_patch',
        'PreToolUse:apply_patch',
        'PostToolUse:apply_patch',
        'PreToolUse:subagent',
        'SubagentStart:',
        'PreToolUse:Bash:child',
        'PostToolUse:Bash:child',
        'SubagentStop:',
        'PostToolUse:subagent',
        'Stop:',
      ])
    } finally {
      await t.dispose()
    }
  })

  it('C4 the fixtures are strict: an extra field, a missing turn_id or a non-command Bash input fail', async () => {
    const check = await validators()
    const base = {
      session_id: 's',
      transcript_path: null,
      cwd: '/w',
      hook_event_name: 'PreToolUse',
      model: 'm',
      permission_mode: 'default',
      turn_id: 's:1',
      tool_name: 'Bash',
      tool_use_id: 'call_1',
      tool_input: { command: 'ls' },
    }
    expect(check.PreToolUse(base)).toBe(true)
    expect(check.PreToolUse({ ...base, extra: 1 })).toBe(false)
    const { turn_id: _turnId, ...withoutTurn } = base
    expect(check.PreToolUse(withoutTurn)).toBe(false)
    expect(check.PreToolUse({ ...base, tool_input: { command: 'ls', timeout_ms: 5 } })).toBe(false)
    expect(
      check.PreToolUse({ ...base, tool_name: 'apply_patch', tool_input: { command: 'not a patch' } }),
    ).toBe(false)
    expect(check.PreToolUse({ ...base, agent_id: 'child' })).toBe(false)
    expect(check.SessionStart({ ...base, hook_event_name: 'SessionStart' })).toBe(false)
  })
})
