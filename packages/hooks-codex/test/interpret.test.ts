// C5 table: how one decoded output is read per point (block only, non-empty reasons, what fails and
// what is only logged). Outputs come from the shared codec, so each case starts from a process result.
import { decodeHookOutput } from '@tack/hook-protocol'
import { describe, expect, it } from 'vitest'
import type { CodexPoint } from '../src/events.ts'
import { interpretCodexOutput } from '../src/interpret.ts'

const read = (point: CodexPoint, exitCode: number, stdout: string, stderr = '') =>
  interpretCodexOutput(point, decodeHookOutput('codex', point, { exitCode, stdout, stderr }))

const spec = (point: string, fields: Record<string, unknown>) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: point, ...fields } })

describe('interpretCodexOutput', () => {
  it('C5 PreToolUse: deny and legacy block need a reason; ask, approve and continue:false fail; the rest is ignored', () => {
    const cases: Array<[number, string, string, Record<string, unknown>]> = [
      [
        0,
        spec('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'no' }),
        '',
        { decision: 'deny', reason: 'no', failed: false },
      ],
      [0, spec('PreToolUse', { permissionDecision: 'deny' }), '', { failed: true }],
      [0, '{"decision":"block","reason":"legacy"}', '', { decision: 'deny', reason: 'legacy' }],
      [0, '{"decision":"block"}', '', { failed: true }],
      [0, '{"decision":"approve"}', '', { failed: true }],
      [0, spec('PreToolUse', { permissionDecision: 'ask' }), '', { failed: true }],
      [0, '{"continue":false}', '', { failed: true }],
      [2, '{"ignored":true}', 'stderr reason', { decision: 'deny', reason: 'stderr reason' }],
      [0, 'plain text', '', { failed: false, json: false, stdout: 'plain text' }],
    ]
    for (const [exit, stdout, stderr, expected] of cases) {
      expect(read('PreToolUse', exit, stdout, stderr).output, stdout).toMatchObject(expected)
    }
    const allow = read('PreToolUse', 0, spec('PreToolUse', { permissionDecision: 'allow' }))
    expect(allow.output.decision).toBeUndefined()
    expect(allow.warnings).toEqual(['permissionDecision "allow" without updatedInput has no effect'])
    const lone = read(
      'PreToolUse',
      0,
      spec('PreToolUse', { updatedInput: { command: 'x' }, additionalContext: 'c' }),
    )
    expect(lone.output.updatedInput).toBeUndefined()
    expect(lone.output.additionalContext).toBeUndefined()
    expect(lone.warnings).toHaveLength(2)
    const rewrite = read(
      'PreToolUse',
      0,
      spec('PreToolUse', { permissionDecision: 'allow', updatedInput: { command: 'x' } }),
    )
    expect(rewrite.output).toMatchObject({ decision: 'allow', updatedInput: { command: 'x' } })
  })

  it('C5 PostToolUse and UserPromptSubmit: block with a reason, exit 2, context; other decisions dropped', () => {
    for (const point of ['PostToolUse', 'UserPromptSubmit'] as const) {
      expect(read(point, 0, '{"decision":"block","reason":"r"}').output).toMatchObject({
        decision: 'block',
        reason: 'r',
      })
      expect(read(point, 0, '{"decision":"block","reason":"  "}').output.failed).toBe(true)
      expect(read(point, 2, '', 'why').output).toMatchObject({ decision: 'block', reason: 'why' })
      expect(read(point, 0, spec(point, { additionalContext: 'ctx' })).output.additionalContext).toBe('ctx')
      const deny = read(point, 0, spec(point, { permissionDecision: 'deny', permissionDecisionReason: 'x' }))
      expect(deny.output.decision).toBeUndefined()
      expect(deny.warnings.length).toBeGreaterThan(0)
    }
  })

  it('C5 SessionStart cannot block; continue:false is only warned', () => {
    const blocked = read('SessionStart', 2, '', 'nope')
    expect(blocked.output.decision).toBeUndefined()
    const halted = read('SessionStart', 0, '{"continue":false}')
    expect(halted.output.continue).toBe(false)
    expect(halted.warnings).toEqual(['continue:false on SessionStart was ignored'])
  })

  it('C5 Stop: JSON or nothing; block needs a reason; empty output passes', () => {
    expect(read('Stop', 0, 'plain').output).toMatchObject({
      failed: true,
      failure: 'Stop hooks must print JSON or nothing',
    })
    expect(read('Stop', 0, '').output.failed).toBe(false)
    expect(read('Stop', 0, '{}').output.failed).toBe(false)
    expect(read('Stop', 0, '{"decision":"block","reason":"go on"}').output).toMatchObject({
      decision: 'block',
    })
    expect(read('Stop', 0, '{"decision":"block"}').output.failed).toBe(true)
    expect(read('Stop', 1, '{"decision":"block","reason":"exit 1 is ignored"}').output.failed).toBe(true)
  })

  it('C5 fields the codec does not know are warned', () => {
    const out = read('PostToolUse', 0, spec('PostToolUse', { updatedMCPToolOutput: { ok: true } }))
    expect(out.warnings).toEqual(['hookSpecificOutput.updatedMCPToolOutput is not supported and was ignored'])
  })
  it('0181 PermissionRequest: allow/deny from hookSpecificOutput.decision; reserved and unknown fields, exit 2 and a deny with permission updates fail; updates with allow are warned', () => {
    const decision = (d: Record<string, unknown>) => spec('PermissionRequest', { decision: d })
    const cases: Array<[number, string, string, Record<string, unknown>]> = [
      [0, decision({ behavior: 'allow' }), '', { decision: 'allow', failed: false }],
      [
        0,
        decision({ behavior: 'deny', message: 'no' }),
        '',
        { decision: 'deny', reason: 'no', failed: false },
      ],
      [0, decision({ behavior: 'deny' }), '', { decision: 'deny', failed: false }],
      [0, decision({ behavior: 'ask' }), '', { failed: true }],
      [0, decision({ behavior: 'allow', updatedInput: { command: 'x' } }), '', { failed: true }],
      [0, decision({ behavior: 'deny', interrupt: true }), '', { failed: true }],
      [0, decision({ behavior: 'deny', addDirectories: [] }), '', { failed: true }],
      [0, decision({ behavior: 'allow', extra: 1 }), '', { failed: true }],
      [0, '{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}', '', { failed: true }],
      [0, '{"continue":false}', '', { failed: true }],
      [0, '{"stopReason":"x"}', '', { failed: true }],
      [0, '{"decision":"block","reason":"legacy"}', '', { failed: true }],
      [
        0,
        spec('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'wrong event' }),
        '',
        { failed: true },
      ],
      [2, '', 'denied by exit 2', { failed: true }],
      [0, 'plain words', '', { failed: false }],
      [0, '{"systemMessage":"only a note"}', '', { failed: false, systemMessage: 'only a note' }],
    ]
    for (const [exit, stdout, stderr, expected] of cases) {
      const { output } = read('PermissionRequest', exit, stdout, stderr)
      expect(output, stdout || stderr).toMatchObject(expected)
      if (!('decision' in expected)) expect(output.decision, stdout || stderr).toBeUndefined()
    }
    const updates = read('PermissionRequest', 0, decision({ behavior: 'allow', updatedPermissions: [] }))
    expect(updates.output).toMatchObject({ decision: 'allow', failed: false })
    expect(updates.warnings).toEqual(['decision.updatedPermissions is not supported and was ignored'])
  })

  it('0181 PreCompact/PostCompact: continue:false stops; exit 2 and keys outside Codex’s schema fail; plain stdout is ignored. Interrupt: JSON with systemMessage alone or nothing', () => {
    for (const point of ['PreCompact', 'PostCompact'] as const) {
      expect(read(point, 0, '{"continue":false,"stopReason":"no"}').output).toMatchObject({
        failed: false,
        continue: false,
        stopReason: 'no',
      })
      expect(read(point, 0, '{"systemMessage":"fine","suppressOutput":true}').output.failed).toBe(false)
      expect(read(point, 2, '', 'stop it').output.failed).toBe(true)
      expect(read(point, 0, '{"decision":"block","reason":"x"}').output.failed).toBe(true)
      expect(read(point, 0, spec(point, { additionalContext: 'x' })).output.failed).toBe(true)
      expect(read(point, 0, 'some words').output).toMatchObject({ failed: false })
    }
    expect(read('Interrupt', 0, '').output.failed).toBe(false)
    expect(read('Interrupt', 0, '{"systemMessage":"noted"}').output).toMatchObject({
      failed: false,
      systemMessage: 'noted',
    })
    expect(read('Interrupt', 0, '{"continue":true}').output.failed).toBe(true)
    expect(read('Interrupt', 0, 'words').output.failed).toBe(true)
    expect(read('Interrupt', 2, '', 'x').output.failed).toBe(true)
  })
})
