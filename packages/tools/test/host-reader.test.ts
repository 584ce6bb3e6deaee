// docs/decisions/0210-host-protocol-packages.md: one reader of tools' host declarations for every host.
// A tool with no mapping keeps its own name and raw arguments; a declaration is a plugin's code, so a
// `toInput` that throws or answers a non-object is warned and the raw arguments shown, and a `fromInput`
// that fails is a problem for the caller to refuse. Declarations may answer at once (Claude's) or later
// (Codex's apply_patch reads the file), and both read the same.
import { describe, expect, it } from 'vitest'
import { type HostDeclarations, HostMappingReader, type ToolHostName, type ToolHosts } from '../src/index.ts'

function reader(host: ToolHostName, declared: Record<string, { host?: ToolHosts }>) {
  const warnings: string[] = []
  const tools: HostDeclarations = { get: (name) => declared[name] }
  return { tools: new HostMappingReader(host, tools, (m) => warnings.push(m)), warnings }
}

const failing = (message: string) => () => {
  throw new Error(message)
}

describe('0210 HostMappingReader', () => {
  it('0210 an undeclared tool, or one without a name, keeps its name and raw arguments; an updatedInput is its arguments', () => {
    const { tools, warnings } = reader('claude', {
      run_code: {},
      nameless: { host: { claude: { name: '' } } },
    })
    expect(tools.name('run_code')).toBe('run_code')
    expect(tools.name('nameless')).toBe('nameless')
    expect(tools.name('mcp__srv__x')).toBe('mcp__srv__x')
    expect(tools.mapping('run_code')).toBeUndefined()
    expect(tools.input('mcp__srv__x', { q: 1 }, '/w')).toEqual({ q: 1 })
    expect(tools.arguments('mcp__srv__x', { q: 2 }, '/w', { q: 1 })).toEqual({
      ok: true,
      arguments: { q: 2 },
    })
    expect(tools.arguments('mcp__srv__x', [1], '/w', {})).toEqual({
      ok: false,
      problem: 'updatedInput must be an object',
    })
    expect(new HostMappingReader('codex', undefined).name('bash')).toBe('bash')
    expect(warnings).toEqual([])
  })

  it('0210 a declared tool is shown and read back through its mapping, for its host only', async () => {
    const run = {
      name: 'Bash',
      toInput: async (args: unknown) => ({ command: (args as { cmd?: unknown }).cmd }),
      fromInput: async (input: Readonly<Record<string, unknown>>, call: { original: unknown }) => ({
        ...(call.original as object),
        cmd: input.command,
      }),
    }
    const { tools, warnings } = reader('codex', { run: { host: { codex: run, claude: { name: 'Run' } } } })
    expect(tools.name('run')).toBe('Bash')
    expect(await tools.inputAsync('run', { cmd: 'ls', secs: 3 }, '/w')).toEqual({ command: 'ls' })
    expect(await tools.argumentsAsync('run', { command: 'ls -la' }, '/w', { cmd: 'ls', secs: 3 })).toEqual({
      ok: true,
      arguments: { cmd: 'ls -la', secs: 3 },
    })
    expect(
      reader('claude', { run: { host: { codex: run, claude: { name: 'Run' } } } }).tools.name('run'),
    ).toBe('Run')
    expect(warnings).toEqual([])
  })

  it('0210 a toInput that throws, rejects or answers a non-object is warned; the raw arguments are shown', async () => {
    const { tools, warnings } = reader('claude', {
      boom: { host: { claude: { name: 'Boom', toInput: failing('bad mapping') } } },
      odd: { host: { claude: { name: 'Odd', toInput: () => 'text' } } },
      later: {
        host: { claude: { name: 'Later', toInput: async () => Promise.reject(new Error('no file')) } },
      },
    })
    expect(tools.input('boom', { a: 1 }, '/w')).toEqual({ a: 1 })
    expect(tools.input('odd', { b: 2 }, '/w')).toEqual({ b: 2 })
    expect(await tools.inputAsync('later', { c: 3 }, '/w')).toEqual({ c: 3 })
    expect(warnings).toEqual([
      'tool "boom": host.claude.toInput threw (bad mapping); its raw arguments are shown',
      'tool "odd": host.claude.toInput must return an object; its raw arguments are shown',
      'tool "later": host.claude.toInput threw (no file); its raw arguments are shown',
    ])
  })

  it('0210 a fromInput that throws, rejects or answers a non-object is a problem, not a warning', async () => {
    const { tools, warnings } = reader('codex', {
      boom: { host: { codex: { name: 'Boom', fromInput: failing('unreadable') } } },
      odd: { host: { codex: { name: 'Odd', fromInput: () => 42 } } },
    })
    expect(tools.arguments('boom', { x: 1 }, '/w', {})).toEqual({
      ok: false,
      problem: 'tool "boom": host.codex.fromInput threw: unreadable',
    })
    expect(await tools.argumentsAsync('boom', { x: 1 }, '/w', {})).toEqual({
      ok: false,
      problem: 'tool "boom": host.codex.fromInput threw: unreadable',
    })
    expect(tools.arguments('odd', { x: 1 }, '/w', {})).toEqual({
      ok: false,
      problem: 'tool "odd": host.codex.fromInput must return an object',
    })
    expect(warnings).toEqual([])
  })
})
