import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countClaudeUserTurns } from '../src/depth/claude.ts'
import { countCodexUserTurns } from '../src/depth/codex.ts'
import { tempDir } from './helpers.ts'

type Kind = 'prompt' | 'tool' | 'assistant' | 'garbage' | 'blank' | 'codexUser' | 'codexOther'

const render: Record<Kind, (text: string) => string> = {
  prompt: (t) => JSON.stringify({ type: 'user', message: { role: 'user', content: t } }),
  tool: (t) =>
    JSON.stringify({
      type: 'user',
      message: { content: [{ type: 'tool_result', content: t }] },
      toolUseResult: { stdout: t },
    }),
  assistant: (t) =>
    JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: `"user" ${t}` }] } }),
  garbage: (t) => `{"type":"user",,${t}`,
  blank: () => '   ',
  codexUser: (t) =>
    JSON.stringify({
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: t }] },
    }),
  codexOther: (t) =>
    JSON.stringify({
      type: 'response_item',
      payload: { type: 'function_call_output', output: `"user" ${t}` },
    }),
}

const line = fc.record({
  kind: fc.constantFrom<Kind>('prompt', 'tool', 'assistant', 'garbage', 'blank', 'codexUser', 'codexOther'),
  text: fc.string({ unit: 'binary', maxLength: 40 }),
})

describe('R4 (90-quality) transcript depth parsers, property-based', () => {
  it('R17 R18 counts equal the generated user lines for any content, line ending and chunk size, and never throw', () => {
    const dir = tempDir()
    let n = 0
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        (lines, crlf, chunk) => {
          const path = join(dir, `t${n++}.jsonl`)
          writeFileSync(path, lines.map((l) => render[l.kind](l.text)).join(crlf ? '\r\n' : '\n'))
          expect(countClaudeUserTurns(path, chunk)).toBe(lines.filter((l) => l.kind === 'prompt').length)
          expect(countCodexUserTurns(path, chunk)).toBe(lines.filter((l) => l.kind === 'codexUser').length)
        },
      ),
      { numRuns: 200 },
    )
  })
  it('R17 arbitrary bytes never throw and count nothing that is not a user line', () => {
    const dir = tempDir()
    let n = 0
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 32 }), (bytes, chunk) => {
        const path = join(dir, `b${n++}.jsonl`)
        writeFileSync(path, bytes)
        const count = countClaudeUserTurns(path, chunk)
        expect(count).toBeGreaterThanOrEqual(0)
        expect(count).toBeLessThanOrEqual(bytes.filter((b) => b === 10).length + 1)
      }),
      { numRuns: 200 },
    )
  })
})
