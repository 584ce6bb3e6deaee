// docs/decisions/0210-host-protocol-packages.md: tools as Claude Code sees them, from their declarations
// alone; a declaration is a plugin's code, so one that throws or answers a wrong shape is warned and the
// tool shown as undeclared, and a way back that fails is a problem for the caller to refuse.
import { describe, expect, it } from 'vitest'
import { type ClaudeToolMapping, ClaudeTools } from '../src/index.ts'

const ok = { content: [{ type: 'text', text: 'out' }], isError: false }

function view(declared: Record<string, { host?: { claude?: ClaudeToolMapping } }>) {
  const warnings: string[] = []
  const tools = new ClaudeTools({ get: (name) => declared[name] }, (m) => warnings.push(m))
  return { tools, warnings }
}

describe('0210 ClaudeTools', () => {
  it('0210 an undeclared tool keeps its name and raw arguments and answers {output, isError}', () => {
    const { tools, warnings } = view({ run_code: {} })
    expect(tools.name('run_code')).toBe('run_code')
    expect(tools.name('mcp__srv__x')).toBe('mcp__srv__x')
    expect(tools.input('mcp__srv__x', { q: 1 }, '/w')).toEqual({ q: 1 })
    expect(tools.arguments('mcp__srv__x', { q: 2 }, '/w', { q: 1 })).toEqual({
      ok: true,
      arguments: { q: 2 },
    })
    expect(tools.response('run_code', {}, ok, '/w')).toEqual({ output: 'out', isError: false })
    expect(warnings).toEqual([])
  })

  it('0210 a declared name without toResponse gets the response Claude Code reports for that name', () => {
    const { tools } = view({ todo: { host: { claude: { name: 'TodoWrite' } } } })
    expect(tools.response('todo', { todos: [1] }, ok, '/w', { previousTodos: [0] })).toEqual({
      oldTodos: [0],
      newTodos: [1],
    })
  })

  it('0210 a toInput that throws or answers a non-object is warned; the raw arguments are shown', () => {
    const { tools, warnings } = view({
      boom: {
        host: {
          claude: {
            name: 'Boom',
            toInput: () => {
              throw new Error('bad mapping')
            },
          },
        },
      },
      odd: { host: { claude: { name: 'Odd', toInput: () => 'text' as never } } },
    })
    expect(tools.input('boom', { a: 1 }, '/w')).toEqual({ a: 1 })
    expect(tools.input('odd', { b: 2 }, '/w')).toEqual({ b: 2 })
    expect(warnings).toEqual([
      'tool "boom": host.claude.toInput threw (bad mapping); its raw arguments are shown',
      'tool "odd": host.claude.toInput must return an object; its raw arguments are shown',
    ])
  })

  it('0210 a fromInput that throws is a problem; a toResponse that throws is warned and {output, isError} shown', () => {
    const { tools, warnings } = view({
      boom: {
        host: {
          claude: {
            name: 'Boom',
            fromInput: () => {
              throw new Error('unreadable')
            },
            toResponse: () => {
              throw new Error('no response')
            },
          },
        },
      },
    })
    expect(tools.arguments('boom', { x: 1 }, '/w', {})).toEqual({
      ok: false,
      problem: 'tool "boom": host.claude.fromInput threw: unreadable',
    })
    expect(tools.response('boom', {}, ok, '/w')).toEqual({ output: 'out', isError: false })
    expect(warnings).toEqual([
      'tool "boom": host.claude.toResponse threw (no response); {output, isError} is shown',
    ])
  })
})
