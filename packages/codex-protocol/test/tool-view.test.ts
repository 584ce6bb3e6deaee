// docs/decisions/0210-host-protocol-packages.md: a Codex mapping built from this package's helpers, read
// through @tack/tools' `HostMappingReader` as the Codex bridge reads it: the Bash input, and an
// `updatedInput` read back, or refused with the helper's own reason.
import { HostMappingReader } from '@tack/tools'
import { describe, expect, it } from 'vitest'
import { type CodexToolMapping, codexBashInput, codexCommandOf } from '../src/index.ts'

const run: CodexToolMapping = {
  name: 'Bash',
  toInput: (args) => codexBashInput((args as { cmd?: unknown }).cmd),
  fromInput: (input, call) => ({ ...(call.original as object), cmd: codexCommandOf('Bash', input) }),
}

describe('0210 a CodexToolMapping', () => {
  it('0210 shows the Bash input and reads an updatedInput back, or says why it cannot', async () => {
    const tools = new HostMappingReader('codex', {
      get: (name) => (name === 'run' ? { host: { codex: run } } : undefined),
    })
    expect(tools.name('run')).toBe('Bash')
    expect(await tools.inputAsync('run', { cmd: 'ls', secs: 3 }, '/w')).toEqual({ command: 'ls' })
    expect(await tools.argumentsAsync('run', { command: 'ls -la' }, '/w', { cmd: 'ls', secs: 3 })).toEqual({
      ok: true,
      arguments: { cmd: 'ls -la', secs: 3 },
    })
    expect(await tools.argumentsAsync('run', { cmd: 'x' }, '/w', {})).toEqual({
      ok: false,
      problem: 'tool "run": host.codex.fromInput threw: updatedInput for Bash must carry a string "command"',
    })
  })
})
