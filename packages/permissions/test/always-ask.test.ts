// A tool that declares `alwaysAsk` (an MCP tool its server marks destructiveHint, spec 55-mcp.md M3)
// is asked in every mode but yolo, whatever its access; read-only still denies what it denies, and an
// allow rule still counts as the approval.
import { describe, expect, it } from 'vitest'
import { decide } from '../src/decide.ts'
import type { CallFacts } from '../src/facts.ts'

const facts = (access: CallFacts['access'], alwaysAsk = true): CallFacts => ({
  tool: 'mcp__fs__write_file',
  access,
  paths: [],
  root: { lexical: '/w', real: '/w' },
  ...(alwaysAsk ? { alwaysAsk } : {}),
})
const none = { allow: [], deny: [] }
const asked = { kind: 'ask', reason: 'mcp__fs__write_file is marked destructive by its server' }

describe('alwaysAsk', () => {
  it('asks where the mode would let it pass', () => {
    expect(decide(facts('execute'), 'workspace-write', none, true)).toEqual(asked)
    expect(decide(facts('read'), 'ask', none, true)).toEqual(asked)
    expect(decide(facts('read'), 'read-only', none, true)).toEqual(asked)
  })

  it('changes nothing in yolo, in read-only for what it denies, or without the declaration', () => {
    expect(decide(facts('execute'), 'yolo', none, true).kind).toBe('allow')
    expect(decide(facts('execute'), 'read-only', none, true).kind).toBe('deny')
    expect(decide(facts('execute', false), 'workspace-write', none, true).kind).toBe('pass')
  })

  it('an execute tool without a command (an MCP tool) is not said to run a shell command', () => {
    expect(decide(facts('execute', false), 'ask', none, true)).toEqual({
      kind: 'ask',
      reason: 'mcp__fs__write_file runs code whose effects are not known in advance',
    })
  })

  it('an allow rule is the approval', () => {
    const rules = { allow: [{ tool: 'mcp__fs__write_file' }], deny: [] }
    expect(decide(facts('execute'), 'workspace-write', rules as never, true).kind).toBe('allow')
  })
})
