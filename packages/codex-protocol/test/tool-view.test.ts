// docs/decisions/0210-host-protocol-packages.md: tools as Codex sees them, from their declarations alone.
import { describe, expect, it } from 'vitest'
import { type CodexToolMapping, CodexTools, codexBashInput, codexCommandOf } from '../src/index.ts'

function view(declared: Record<string, { host?: { codex?: CodexToolMapping } }>) {
  const warnings: string[] = []
  const tools = new CodexTools({ get: (name) => declared[name] }, (m) => warnings.push(m))
  return { tools, warnings }
}

const run: CodexToolMapping = {
  name: 'Bash',
  toInput: (args) => codexBashInput((args as { cmd?: unknown }).cmd),
  fromInput: (input, call) => ({ ...(call.original as object), cmd: codexCommandOf('Bash', input) }),
}

describe('0210 CodexTools', () => {
  it('0210 a declared tool is shown and read back through its mapping; an undeclared one keeps its own', async () => {
    const { tools, warnings } = view({ run: { host: { codex: run } }, read: {} })
    expect(tools.name('run')).toBe('Bash')
    expect(await tools.input('run', { cmd: 'ls', secs: 3 }, '/w')).toEqual({ command: 'ls' })
    expect(await tools.arguments('run', { command: 'ls -la' }, { cmd: 'ls', secs: 3 }, '/w')).toEqual({
      ok: true,
      arguments: { cmd: 'ls -la', secs: 3 },
    })
    expect(await tools.arguments('run', { cmd: 'x' }, {}, '/w')).toEqual({
      ok: false,
      problem: 'updatedInput for Bash must carry a string "command"',
    })
    expect(tools.name('read')).toBe('read')
    expect(await tools.input('read', { p: 1 }, '/w')).toEqual({ p: 1 })
    expect(await tools.arguments('read', [1], {}, '/w')).toEqual({
      ok: false,
      problem: 'updatedInput must be an object',
    })
    expect(warnings).toEqual([])
  })

  it('0210 a toInput that throws is warned and the raw arguments shown', async () => {
    const { tools, warnings } = view({
      boom: {
        host: {
          codex: {
            name: 'Boom',
            toInput: () => {
              throw new Error('bad mapping')
            },
          },
        },
      },
    })
    expect(await tools.input('boom', { a: 1 }, '/w')).toEqual({ a: 1 })
    expect(warnings).toEqual([
      'tool "boom": host.codex.toInput threw (bad mapping); its raw arguments are shown',
    ])
  })
})
