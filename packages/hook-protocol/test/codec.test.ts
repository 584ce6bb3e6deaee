// A4: the per-dialect output codec, table-driven, plus R4 property tests (never throws; failures carry
// no decision; JSON fields are read leniently).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeHookOutput, type HookDialect, type HookOutput, mergeHookOutputs } from '../src/index.ts'

const run = (dialect: HookDialect, exitCode: number | null, stdout = '', stderr = '', event = 'PreToolUse') =>
  decodeHookOutput(dialect, event, { exitCode, stdout, stderr })

const pick = (o: HookOutput) => ({
  failed: o.failed,
  json: o.json,
  decision: o.decision,
  reason: o.reason,
  stdout: o.stdout,
})

describe('A4 codec: claude', () => {
  const rows: Array<[string, number | null, string, string, Partial<HookOutput>]> = [
    [
      'exit 0, empty stdout: no-op',
      0,
      '',
      '',
      { failed: false, json: false, decision: undefined, stdout: '' },
    ],
    [
      'exit 0, JSON object',
      0,
      '{"decision":"block","reason":"r"}',
      '',
      { failed: false, json: true, decision: 'block', reason: 'r' },
    ],
    ['exit 0, JSON with leading spaces', 0, '  \n {"continue":false}', '', { failed: false, json: true }],
    ['exit 0, plain text', 0, 'hello\n', '', { failed: false, json: false, stdout: 'hello' }],
    ['exit 0, broken JSON is plain text', 0, '{"x":', '', { failed: false, json: false, stdout: '{"x":' }],
    ['exit 0, an array is plain text', 0, '[1,2]', '', { failed: false, json: false, stdout: '[1,2]' }],
    ['exit 2: block with stderr', 2, '', 'no rm\n', { failed: false, decision: 'block', reason: 'no rm' }],
    [
      'exit 2 with empty stderr: block, empty reason',
      2,
      '',
      '',
      { failed: false, decision: 'block', reason: '' },
    ],
    [
      'exit 2: JSON reason wins over stderr',
      2,
      '{"reason":"json says"}',
      'stderr says',
      { decision: 'block', reason: 'json says', json: true },
    ],
    [
      'exit 2: JSON allow cannot override the block',
      2,
      '{"decision":"approve"}',
      'nope',
      { decision: 'block', reason: 'nope' },
    ],
    [
      'exit 2: invalid JSON still blocks',
      2,
      '{"reason":',
      'bad',
      { decision: 'block', reason: 'bad', json: false },
    ],
    [
      'exit 1 with a JSON object decides',
      1,
      '{"decision":"block","reason":"j"}',
      'e',
      { failed: false, json: true, decision: 'block', reason: 'j' },
    ],
    ['exit 1 without JSON: failed', 1, 'text', 'oops', { failed: true, decision: undefined }],
    ['exit 127: failed', 127, '', 'command not found', { failed: true }],
    ['killed by a signal: failed', null, '', '', { failed: true }],
  ]
  for (const [title, exit, stdout, stderr, expected] of rows) {
    it(`A4 claude: ${title}`, () => {
      expect(pick(run('claude', exit, stdout, stderr))).toMatchObject(expected)
    })
  }

  it('A4 claude: hookSpecificOutput overrides top-level decision and reason when it names this event', () => {
    const o = run(
      'claude',
      0,
      JSON.stringify({
        decision: 'approve',
        reason: 'top',
        systemMessage: 'hi user',
        continue: true,
        stopReason: 'sr',
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'specific',
          additionalContext: 'ctx',
          updatedInput: { command: 'ls' },
        },
      }),
    )
    expect(o).toMatchObject({
      decision: 'deny',
      reason: 'specific',
      systemMessage: 'hi user',
      continue: true,
      stopReason: 'sr',
      hookEventName: 'PreToolUse',
      additionalContext: 'ctx',
      updatedInput: { command: 'ls' },
    })
    expect(o.unsupported).toBeUndefined()
  })

  it('A4 claude: a PreToolUse-claiming block on a Stop hook has no effect', () => {
    const body = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', additionalContext: 'x' },
    })
    const o = run('claude', 0, body, '', 'Stop')
    expect(o.decision).toBeUndefined()
    expect(o.additionalContext).toBeUndefined()
    expect(o.hookEventName).toBe('PreToolUse')
    expect(mergeHookOutputs([o]).decision).toBeUndefined()
    // Without a hookEventName the specific fields are discarded too; top-level fields still apply.
    const bare = run(
      'claude',
      0,
      '{"decision":"block","hookSpecificOutput":{"additionalContext":"x"}}',
      '',
      'Stop',
    )
    expect(bare).toMatchObject({ decision: 'block' })
    expect(bare.additionalContext).toBeUndefined()
  })

  it('A4 claude: fields of the wrong type are absent; unknown and unusable fields are listed', () => {
    const o = run(
      'claude',
      0,
      JSON.stringify({
        continue: 'no',
        stopReason: 1,
        systemMessage: null,
        decision: 'deny',
        reason: ['x'],
        suppressOutput: true,
        sessionTitle: 't',
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'defer',
          updatedInput: [1],
          updatedToolOutput: {},
        },
      }),
    )
    expect(o.json).toBe(true)
    for (const key of [
      'continue',
      'stopReason',
      'systemMessage',
      'decision',
      'reason',
      'updatedInput',
    ] as const) {
      expect(o[key]).toBeUndefined()
    }
    expect(o.unsupported).toEqual([
      'sessionTitle',
      'hookSpecificOutput.updatedToolOutput',
      'hookSpecificOutput.permissionDecision',
    ])
  })
})

describe('A4 codec: codex', () => {
  const rows: Array<[string, number | null, string, string, Partial<HookOutput>]> = [
    ['exit 0, empty: no-op', 0, '', '', { failed: false, json: false }],
    [
      'exit 0, JSON object',
      0,
      '{"decision":"block","reason":"r"}',
      '',
      { failed: false, json: true, decision: 'block', reason: 'r' },
    ],
    ['exit 0, broken JSON object fails', 0, '{"x":', '', { failed: true }],
    ['exit 0, an array fails', 0, '[1]', '', { failed: true }],
    ['exit 0, plain text', 0, 'hello', '', { failed: false, json: false, stdout: 'hello' }],
    [
      'exit 2 with stderr blocks; stdout ignored',
      2,
      '{"decision":"approve"}',
      'why',
      { failed: false, json: false, decision: 'block', reason: 'why' },
    ],
    ['exit 2 with empty stderr fails', 2, '', '', { failed: true }],
    ['exit 1 with JSON fails', 1, '{"decision":"block"}', '', { failed: true }],
    ['signal: failed', null, '', '', { failed: true }],
  ]
  for (const [title, exit, stdout, stderr, expected] of rows) {
    it(`A4 codex: ${title}`, () => {
      expect(pick(run('codex', exit, stdout, stderr))).toMatchObject(expected)
    })
  }
  it('A4 codex: a plain "hello" is text, while {"x": and [1] fail open', () => {
    expect(run('codex', 0, 'hello').failed).toBe(false)
    expect(run('codex', 0, '{"x":').decision).toBeUndefined()
    expect(mergeHookOutputs([run('codex', 0, '[1]')]).failed).toBe(1)
  })
})

describe('R4 codec properties', () => {
  const dialects = fc.constantFrom<HookDialect>('claude', 'codex')
  const exit = fc.oneof(fc.integer({ min: -1, max: 300 }), fc.constant(null))
  const jsonish = fc.oneof(
    fc.string(),
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          decision: fc.oneof(fc.constantFrom('approve', 'block', 'allow', 'x'), fc.jsonValue()),
          reason: fc.jsonValue(),
          continue: fc.jsonValue(),
          hookSpecificOutput: fc.oneof(
            fc.jsonValue(),
            fc.record({
              hookEventName: fc.constantFrom('PreToolUse', 'Stop', 'Other'),
              permissionDecision: fc.oneof(fc.constantFrom('allow', 'deny', 'ask', 'defer'), fc.jsonValue()),
              additionalContext: fc.jsonValue(),
              updatedInput: fc.jsonValue(),
            }),
          ),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
  )

  it('R4 A3 decode never throws; a failed output carries no decision; decisions are from the protocol set', () => {
    fc.assert(
      fc.property(
        dialects,
        exit,
        jsonish,
        fc.string(),
        fc.constantFrom('PreToolUse', 'Stop'),
        (d, code, out, err, event) => {
          const o = decodeHookOutput(d, event, { exitCode: code, stdout: out, stderr: err })
          expect(typeof o.failed).toBe('boolean')
          expect(o.stdout).toBe(out.trim())
          expect(o.stderr).toBe(err.trim())
          if (o.failed) expect(o.decision).toBeUndefined()
          if (o.decision !== undefined)
            expect(['approve', 'block', 'allow', 'deny', 'ask']).toContain(o.decision)
          for (const k of ['reason', 'additionalContext', 'systemMessage', 'stopReason'] as const) {
            if (o[k] !== undefined) expect(typeof o[k]).toBe('string')
          }
          if (o.updatedInput !== undefined) expect(Array.isArray(o.updatedInput)).toBe(false)
          if (code === 2 && d === 'claude') expect(o.decision).toBe('block')
          if (code !== 0 && code !== 2 && d === 'codex') expect(o.failed).toBe(true)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('R4 decode survives arbitrary bytes decoded as text (binary output)', () => {
    fc.assert(
      fc.property(dialects, fc.uint8Array({ maxLength: 200 }), (d, bytes) => {
        const text = Buffer.from(bytes).toString('utf8')
        const o = decodeHookOutput(d, 'Stop', { exitCode: 0, stdout: text, stderr: text })
        expect(o.failed === true || o.failed === false).toBe(true)
      }),
    )
  })
})
