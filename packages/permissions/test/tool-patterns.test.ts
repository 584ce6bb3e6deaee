// A rule's `tool` may be a wildcard over tool names, so `mcp__github__*` covers every tool of an MCP
// server (spec 55-mcp.md M8); a plain name still matches only itself.
import { describe, expect, it } from 'vitest'
import { decide } from '../src/decide.ts'
import type { CallFacts } from '../src/facts.ts'

const facts = (tool: string): CallFacts => ({
  tool,
  access: 'execute',
  paths: [],
  root: { lexical: '/w', real: '/w' },
})

describe('tool name patterns in rules', () => {
  it('deny mcp__github__* denies every tool of that server, even in yolo, and no other', () => {
    const rules = { allow: [], deny: [{ tool: 'mcp__github__*' }] }
    expect(decide(facts('mcp__github__create_issue'), 'yolo', rules, true).kind).toBe('deny')
    expect(decide(facts('mcp__gitlab__create_issue'), 'yolo', rules, true).kind).toBe('allow')
  })

  it('allow mcp__github__* allows without asking in ask mode', () => {
    const rules = { allow: [{ tool: 'mcp__github__*' }], deny: [] }
    expect(decide(facts('mcp__github__list'), 'ask', rules, true).kind).toBe('allow')
    expect(decide(facts('mcp__other__list'), 'ask', rules, true).kind).toBe('ask')
  })

  it('a plain name matches only itself', () => {
    const rules = { allow: [], deny: [{ tool: 'bash' }] }
    expect(decide(facts('bash'), 'yolo', rules, true).kind).toBe('deny')
    expect(decide(facts('bash_extra'), 'yolo', rules, true).kind).toBe('allow')
  })
})
