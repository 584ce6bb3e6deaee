// docs/decisions/0300-approval-shows-the-change.md through the real `tack` in a pseudo-terminal: the
// permission question for an `edit`, a `write` over a file and a Code Mode program's inner edit shows
// the diff the tool's dry run computed — numbered, as the applied change's card shows it — before
// anything is written; a multi-line command shows every line; an edit of a file not read yet fails
// without a question. A Code Mode program is not asked about itself: its inner calls are, each with its own.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const GREET = "// greetings\nexport function greet(name: string) {\n  return 'Hello ' + name\n}\n"
const readGreet = { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'greet.ts' } }] } as const
const prepare = (ws: string) => writeFile(join(ws, 'greet.ts'), GREET)

describe('tack interactive: an approval shows the change', () => {
  it('edit: the question shows the numbered diff; nothing is written until it is allowed', async () => {
    const { term, box } = await openTui(
      [
        readGreet,
        {
          kind: 'tool-calls',
          calls: [
            { name: 'edit', args: { file_path: 'greet.ts', old_string: "'Hello '", new_string: "'Hi, '" } },
          ],
        },
        { kind: 'text', text: 'Edited.' },
      ],
      { args: ['--permission-mode', 'ask'], prepare },
    )
    await submit(term, 'change the greeting')
    const question = await term.waitFor('Permission required', 20_000)
    expect(question).toContain('Allow edit greet.ts?')
    expect(question).toMatch(/@@ -1,4 \+1,4 @@/)
    expect(question).toMatch(/^\s*3 - {3}return 'Hello ' \+ name$/m)
    expect(question).toMatch(/^\s*3 \+ {3}return 'Hi, ' \+ name$/m)
    expect(question).toMatch(/› 1\. Allow once/)
    expect(await readFile(join(box.workspace, 'greet.ts'), 'utf8')).toBe(GREET)
    term.press('enter')
    await term.waitFor('Edited.', 20_000)
    expect(await readFile(join(box.workspace, 'greet.ts'), 'utf8')).toContain("'Hi, '")
  })

  it('write over a file: the question shows the whole-file diff', async () => {
    const { term } = await openTui(
      [
        readGreet,
        {
          kind: 'tool-calls',
          calls: [
            {
              name: 'write',
              args: { file_path: 'greet.ts', content: GREET.replace('greetings', 'welcomes') },
            },
          ],
        },
        { kind: 'text', text: 'Wrote.' },
      ],
      { args: ['--permission-mode', 'ask'], prepare },
    )
    await submit(term, 'rewrite it')
    const question = await term.waitFor('Permission required', 20_000)
    expect(question).toContain('Allow write greet.ts?')
    expect(question).toMatch(/^\s*1 - \/\/ greetings$/m)
    expect(question).toMatch(/^\s*1 \+ \/\/ welcomes$/m)
    term.press('enter')
    await term.waitFor('Wrote.', 20_000)
  })

  it('an edit of a file not read yet fails without a question', async () => {
    const { term, box } = await openTui(
      [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'edit', args: { file_path: 'greet.ts', old_string: "'Hello '", new_string: "'Hi, '" } },
          ],
        },
        { kind: 'text', text: 'It needs a read first.' },
      ],
      { args: ['--permission-mode', 'ask'], prepare },
    )
    const mark = term.raw().length
    await submit(term, 'change the greeting')
    await term.waitFor('It needs a read first.', 20_000)
    expect(term.raw().slice(mark)).not.toContain('Permission required')
    expect(await readFile(join(box.workspace, 'greet.ts'), 'utf8')).toBe(GREET)
  })

  it('Code Mode: the program runs without a question of its own; its inner edit is asked with its diff and the program', async () => {
    const program = [
      "await tools.read({ file_path: 'greet.ts' })",
      '// the greeting gets shorter',
      "await tools.edit({ file_path: 'greet.ts', old_string: \"'Hello '\", new_string: \"'Hi, '\" })",
    ].join('\n')
    const { term, box } = await openTui(
      [
        { kind: 'tool-calls', calls: [{ name: 'run_code', args: { code: program } }] },
        { kind: 'text', text: 'Ran.' },
      ],
      { args: ['--permission-mode', 'ask', '--tools-mode', 'code'], prepare, rows: 40 },
    )
    await submit(term, 'change the greeting')
    const inner = await term.waitFor('Allow edit greet.ts?', 20_000)
    // the program's card above the question names it; the question is the inner call's, with its diff
    expect(inner).toContain("run_code await tools.read({ file_path: 'greet.ts' }) (+2 more lines)")
    expect(inner).toMatch(/^\s*3 - {3}return 'Hello ' \+ name$/m)
    expect(inner).toMatch(/^\s*3 \+ {3}return 'Hi, ' \+ name$/m)
    // and, under the change, the program it comes from, every line of it
    expect(inner).toMatch(/It is a call of the Code Mode program run_code \(call_1\):/)
    expect(inner).toContain('// the greeting gets shorter')
    expect(await readFile(join(box.workspace, 'greet.ts'), 'utf8')).toBe(GREET)
    term.press('enter')
    await term.waitFor('Ran.', 20_000)
    expect(await readFile(join(box.workspace, 'greet.ts'), 'utf8')).toContain("'Hi, '")
  })

  it('a multi-line command shows every line in the question', async () => {
    const command = 'echo one > out.txt\necho two >> out.txt\necho three >> out.txt'
    const { term } = await openTui(
      [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command } }] },
        { kind: 'text', text: 'Done.' },
      ],
      { args: ['--permission-mode', 'ask'] },
    )
    await submit(term, 'write three lines')
    const question = await term.waitFor('Permission required', 20_000)
    for (const line of command.split('\n')) expect(question).toContain(`    ${line}`)
  })
})
