// Issue 26 item 3 in the interactive UI, through the real `tack` in a pseudo-terminal
// (docs/decisions/0310-failures-stay-visible.md): a failed bash card shows the output's tail — where the
// error is — not its head; a run_code card lists the program's sub-calls with their status; a subagent's
// card lists the subagent's own calls with theirs.
import { appendFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const FAILING = "for i in $(seq 1 12); do echo step $i; done; echo 'Error: 2 tests failed' >&2; exit 3"

describe('tack interactive: failures stay visible', () => {
  it("a failed bash card shows its output's last lines and how many came before", async () => {
    const { term } = await openTui(
      [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: FAILING } }] },
        { kind: 'text', text: 'All tests pass.' },
      ],
      { args: ['--permission-mode', 'yolo'], rows: 40 },
    )
    await submit(term, 'run the tests')
    const screen = await term.waitFor('All tests pass.', 20_000)
    expect(screen).toMatch(/✗ bash for i in .*failed/)
    // plugins.tui.failureTailLines (6): the exit code note, the error and four lines before them
    expect(screen).toContain('… 8 earlier lines')
    expect(screen).toContain('Error: 2 tests failed')
    expect(screen).toContain('[exit code 3]')
    expect(screen).toContain('step 9')
    expect(screen).not.toMatch(/step 8\b/)
    expect(screen).not.toMatch(/step 1\b/)
  })

  it("a run_code card lists the program's sub-calls with their status", async () => {
    const program = [
      "for (const f of ['src/a.ts', 'src/missing.ts']) {",
      '  try { await tools.read({ file_path: f }) } catch (e: any) { console.log(f, e.code) }',
      '}',
      "return 'read'",
    ].join('\n')
    const { term } = await openTui(
      [
        { kind: 'tool-calls', calls: [{ name: 'run_code', args: { code: program } }] },
        { kind: 'text', text: 'Program finished.' },
      ],
      {
        args: ['--trust', '--tools-mode', 'code', '--permission-mode', 'yolo'],
        rows: 40,
        prepare: async (ws) => {
          await mkdir(join(ws, 'src'))
          await writeFile(join(ws, 'src', 'a.ts'), 'export const a = 1\n')
        },
      },
    )
    await submit(term, 'read both')
    const screen = await term.waitFor('Program finished.', 20_000)
    expect(screen).toMatch(/↳ ✓ read src\/a\.ts/)
    expect(screen).toMatch(/↳ ✗ read src\/missing\.ts — NOT_FOUND/)
  })

  it("a subagent's card lists the subagent's own calls, a failure with its exit code", async () => {
    const { term } = await openTui(
      [
        {
          kind: 'tool-calls',
          calls: [{ name: 'subagent', args: { description: 'check the build', prompt: 'Check the build.' } }],
        },
        // the child's steps (the loopback model answers every request in turn)
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo building' } }] },
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'exit 4' } }] },
        { kind: 'text', text: 'The build is broken.' },
        { kind: 'text', text: 'Parent done.' },
      ],
      { args: ['--permission-mode', 'yolo'], rows: 40 },
    )
    await submit(term, 'check it')
    const screen = await term.waitFor('Parent done.', 20_000)
    expect(screen).toMatch(/subagent check the build/)
    expect(screen).toMatch(/↳ ✓ bash echo building/)
    expect(screen).toMatch(/↳ ✗ bash exit 4 — exit code 4/)
  })

  it('plugins.tui.failureTailLines and innerCallsShown shorten the tail and the list; an earlier failure is counted', async () => {
    const { term } = await openTui(
      [
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: FAILING } }] },
        {
          kind: 'tool-calls',
          calls: [{ name: 'subagent', args: { description: 'check the build', prompt: 'Check the build.' } }],
        },
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'exit 4' } }] },
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo building' } }] },
        { kind: 'text', text: 'The build is broken.' },
        { kind: 'text', text: 'Parent done.' },
      ],
      {
        args: ['--permission-mode', 'yolo'],
        rows: 40,
        // loop.yml ends inside its `plugins:` mapping
        extendConfig: (config) =>
          appendFile(config, '  tui:\n    failureTailLines: 2\n    innerCallsShown: 1\n'),
      },
    )
    await submit(term, 'check it')
    const screen = await term.waitFor('Parent done.', 20_000)
    expect(screen).toContain('… 12 earlier lines')
    expect(screen).toContain('Error: 2 tests failed')
    expect(screen).toContain('[exit code 3]')
    expect(screen).not.toMatch(/step 12\b/)
    expect(screen).toMatch(/↳ … 1 earlier call \(1 failed\)/)
    expect(screen).toMatch(/↳ ✓ bash echo building/)
    expect(screen).not.toContain('exit 4')
  })
})
