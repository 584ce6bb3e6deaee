// `/rewind` in the real `tack` in a pseudo-terminal (docs/decisions/0305-checkpoints-and-rewind.md): the
// picker lists each turn with its prompt and what it changed; picking turn 1 puts the files back as they
// were before it and switches the screen to the conversation forked there, saying what was restored.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)
vi.setConfig({ testTimeout: 90_000 })

describe('tack interactive: /rewind', () => {
  it('the picker shows each turn with its changes; picking turn 1 restores the files and opens the fork', async () => {
    const { term, box } = await openTui(
      [
        { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'one.txt', content: '1\n' } }] },
        { kind: 'text', text: 'Wrote one.' },
        {
          kind: 'tool-calls',
          calls: [{ name: 'bash', args: { command: 'echo x > two.txt && rm keep.txt' } }],
        },
        { kind: 'text', text: 'Wrote two.' },
      ],
      {
        args: ['--permission-mode', 'workspace-write'],
        prepare: (ws) => writeFile(join(ws, 'keep.txt'), 'kept\r\n'),
      },
    )
    await submit(term, 'make one')
    await term.waitFor('Wrote one.', 20_000)
    await submit(term, 'make two')
    await term.waitFor('Wrote two.', 20_000)
    expect(existsSync(join(box.workspace, 'keep.txt'))).toBe(false)

    await submit(term, '/rewind')
    await term.waitFor('Rewind to before turn')
    const screen = await term.waitFor('make two — +1 ~0 -1: -keep.txt +two.txt')
    expect(screen).toContain('make one — +1 ~0 -0: +one.txt')
    term.press('enter')
    await term.waitFor(/conversation forked before turn 1: session [0-9a-f-]{8}/, 20_000)
    expect(existsSync(join(box.workspace, 'one.txt'))).toBe(false)
    expect(existsSync(join(box.workspace, 'two.txt'))).toBe(false)
    expect(await readFile(join(box.workspace, 'keep.txt'), 'latin1')).toBe('kept\r\n')
  })
})
