// docs/decisions/0210-host-protocol-packages.md: a tool's `tool_response` as Claude Code sees it, from its
// declaration alone (read through @tack/tools' `HostMappingReader`, as the bridge and the mod host do):
// its own `toResponse`, else Claude Code's response for its declared name, else `{output, isError}`; a
// `toResponse` that throws is a plugin's bug, warned, and `{output, isError}` shown.
import { HostMappingReader, type ToolHosts } from '@tack/tools'
import { describe, expect, it } from 'vitest'
import { claudeResponse } from '../src/index.ts'

const ok = { content: [{ type: 'text', text: 'out' }], isError: false }

function reader(declared: Record<string, { host?: ToolHosts }>) {
  const warnings: string[] = []
  const tools = new HostMappingReader('claude', { get: (name) => declared[name] }, (m) => warnings.push(m))
  return { tools, warnings }
}

describe('0210 claudeResponse', () => {
  it('0210 an undeclared tool answers {output, isError}', () => {
    const { tools, warnings } = reader({ run_code: {} })
    expect(claudeResponse(tools, 'run_code', {}, ok, '/w')).toEqual({ output: 'out', isError: false })
    expect(warnings).toEqual([])
  })

  it('0210 a declared name without toResponse gets the response Claude Code reports for that name', () => {
    const { tools } = reader({ todo: { host: { claude: { name: 'TodoWrite' } } } })
    expect(claudeResponse(tools, 'todo', { todos: [1] }, ok, '/w', { previousTodos: [0] })).toEqual({
      oldTodos: [0],
      newTodos: [1],
    })
  })

  it('0210 a toResponse answers for the tool; one that throws is warned and {output, isError} shown', () => {
    const { tools, warnings } = reader({
      own: { host: { claude: { name: 'Own', toResponse: (_args, result) => ({ fine: !result.isError }) } } },
      boom: {
        host: {
          claude: {
            name: 'Boom',
            toResponse: () => {
              throw new Error('no response')
            },
          },
        },
      },
    })
    expect(claudeResponse(tools, 'own', {}, ok, '/w')).toEqual({ fine: true })
    expect(claudeResponse(tools, 'boom', {}, ok, '/w')).toEqual({ output: 'out', isError: false })
    expect(warnings).toEqual([
      'tool "boom": host.claude.toResponse threw (no response); {output, isError} is shown',
    ])
  })
})
