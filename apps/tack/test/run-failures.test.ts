// Issue 26 item 3 through the real binary (docs/decisions/0310-failures-stay-visible.md): on a terminal
// (util-linux `script` gives tack a pseudo-terminal) a failed call keeps a line naming the command and its
// exit code, with the last lines of its output under it, and the run ends with a summary; -v keeps every
// call's line; in a log the same lines are printed; `plugins.run` tunes the tail and the summary, and a
// bad value is refused naming its file and key. Ctrl-C says "interrupted".
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runInTerminal, runTack, sandbox, scriptedModel, signalDuringBashCall } from './helpers.ts'

const ERASE = '\r\x1b[2K'
/** Twelve lines of output, then the error on stderr, then exit 3: the error is in the tail, not the head. */
const FAILING = "for i in $(seq 1 12); do echo step $i; done; echo 'Error: 2 tests failed' >&2; exit 3"

const FAIL_THEN_CLAIM = [
  { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo fine' } }] },
  { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: FAILING } }] },
  { kind: 'text', text: 'All tests pass.' },
]

/** What the terminal shows once every erase has done its work: the permanent lines. */
function kept(screen: string): string[] {
  return screen
    .split(/\r?\n/)
    .map((line) => {
      const parts = line.split(ERASE)
      return (parts[parts.length - 1] ?? '').replace(/\r$/, '')
    })
    .filter((line) => line !== '')
}

async function inTerminal(script: readonly unknown[], args: readonly string[], config?: string) {
  const box = await sandbox({ TERM: 'xterm', NO_COLOR: '1' })
  const model = await scriptedModel(box.root, script)
  const configArgs = config ? ['--config', await writeConfig(box.root, config)] : []
  return runInTerminal(
    ['run', ...configArgs, '--model', model, '--permission-mode', 'yolo', ...args, 'test it'],
    {
      env: box.env,
      cwd: box.workspace,
    },
  )
}

async function writeConfig(root: string, text: string): Promise<string> {
  const path = join(root, 'run.yml')
  await writeFile(path, text)
  return path
}

describe('failures stay visible in tack run (issue 26 item 3)', () => {
  test('terminal: a failed command keeps its line with the exit code and its output tail; a summary ends the run', async () => {
    const { code, screen } = await inTerminal(FAIL_THEN_CLAIM, [])
    expect(code).toBe(0)
    const lines = kept(screen)
    const failed = lines.findIndex((l) => l.startsWith('tack: ✗ bash: for i in'))
    expect(failed, screen).toBeGreaterThanOrEqual(0)
    expect(lines[failed]).toMatch(/ — exit code 3$/)
    // the last five lines of the output, the error among them; the head is counted, not shown
    expect(lines.slice(failed + 1, failed + 7)).toEqual([
      'tack:     │ … 8 earlier lines',
      'tack:     │ step 9',
      'tack:     │ step 10',
      'tack:     │ step 11',
      'tack:     │ step 12',
      'tack:     │ Error: 2 tests failed',
    ])
    // a call that succeeded leaves no line on a terminal without -v
    expect(lines.some((l) => l.includes('✓ bash: echo fine'))).toBe(false)
    // the answer, then the summary: two calls, one failed, tokens, cost and duration
    expect(lines.at(-2)).toBe('All tests pass.')
    expect(lines.at(-1)).toMatch(
      /^tack: 2 tool calls \(1 failed\) · 0 in \/ 0 out tokens · cost n\/a · (\d+ ms|[\d.]+ s)$/,
    )
  })

  test('terminal with -v: every finished call keeps a line', async () => {
    const { code, screen } = await inTerminal(FAIL_THEN_CLAIM, ['-v'])
    expect(code).toBe(0)
    const lines = kept(screen)
    expect(lines.some((l) => /^tack: ✓ bash: echo fine \((\d+ ms|[\d.]+ s)\)$/.test(l))).toBe(true)
    expect(lines.some((l) => l.startsWith('tack: ✗ bash: for i in') && l.endsWith('exit code 3'))).toBe(true)
  })

  test("terminal: a subagent's failed call and a program's failed sub-call keep their ↳ lines", async () => {
    const child = kept(
      (
        await inTerminal(
          [
            {
              kind: 'tool-calls',
              calls: [{ name: 'subagent', args: { description: 'build', prompt: 'Build it.' } }],
            },
            { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo compiling; exit 4' } }] },
            { kind: 'text', text: 'The build failed.' },
            { kind: 'text', text: 'Done.' },
          ],
          [],
        )
      ).screen,
    )
    const at = child.findIndex((l) =>
      /^tack: {3}↳ ✗ bash: echo compiling; exit 4 \(.*\) — exit code 4$/.test(l),
    )
    expect(at, child.join('\n')).toBeGreaterThanOrEqual(0)
    expect(child[at + 1]).toBe('tack:         │ compiling')
    const program = "try { await tools.read({ file_path: 'missing.ts' }) } catch {}\nreturn 'ok'"
    const code = kept(
      (
        await inTerminal(
          [
            { kind: 'tool-calls', calls: [{ name: 'run_code', args: { code: program } }] },
            { kind: 'text', text: 'Done.' },
          ],
          ['--trust', '--tools-mode', 'code'],
        )
      ).screen,
    )
    expect(
      code.some((l) => /^tack: {3}↳ ✗ Read missing\.ts — NOT_FOUND/.test(l)),
      code.join('\n'),
    ).toBe(true)
    expect(code.at(-1)).toMatch(/^tack: 2 tool calls \(1 failed\) · /)
  })

  test('plugins.run: a shorter tail, no tail, no summary', async () => {
    const two = kept(
      (await inTerminal(FAIL_THEN_CLAIM, [], 'plugins:\n  run:\n    failureTailLines: 2\n')).screen,
    )
    const at = two.findIndex((l) => l.startsWith('tack: ✗ bash: for i in'))
    expect(two.slice(at + 1, at + 4)).toEqual([
      'tack:     │ … 11 earlier lines',
      'tack:     │ step 12',
      'tack:     │ Error: 2 tests failed',
    ])
    const none = kept(
      (
        await inTerminal(
          FAIL_THEN_CLAIM,
          [],
          'plugins:\n  run:\n    failureTailLines: 0\n    summary: false\n',
        )
      ).screen,
    )
    expect(none.some((l) => l.startsWith('tack: ✗ bash: for i in') && l.endsWith('exit code 3'))).toBe(true)
    expect(none.some((l) => l.includes('│'))).toBe(false)
    expect(none.at(-1)).toBe('All tests pass.')
  })

  test('plugins.run: a value out of range is refused, naming the file and the key', async () => {
    const box = await sandbox()
    const config = await writeConfig(box.root, 'plugins:\n  run:\n    failureTailLines: -1\n')
    const model = await scriptedModel(box.root, FAIL_THEN_CLAIM)
    const r = await runTack(['run', '--config', config, '--model', model, 'go'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(`${config}: plugins.run.failureTailLines: must be an integer 0–200 (got -1)`)
  })

  test('a log: the same failure line and tail, every call a line; the summary only with -v', async () => {
    const box = await sandbox()
    const run = async (args: string[]) =>
      runTack(
        [
          'run',
          '--model',
          await scriptedModel(box.root, FAIL_THEN_CLAIM),
          '--permission-mode',
          'yolo',
          ...args,
          'go',
        ],
        { env: box.env, cwd: box.workspace },
      )
    const plain = await run([])
    expect(plain.code).toBe(0)
    const lines = plain.stderr.trim().split('\n')
    expect(lines[0]).toMatch(/^tack: ✓ bash: echo fine \((\d+ ms|[\d.]+ s)\)$/)
    expect(lines[1]).toMatch(/^tack: ✗ bash: for i in .* — exit code 3$/)
    expect(lines.slice(2)).toEqual([
      'tack:     │ … 8 earlier lines',
      'tack:     │ step 9',
      'tack:     │ step 10',
      'tack:     │ step 11',
      'tack:     │ step 12',
      'tack:     │ Error: 2 tests failed',
    ])
    const verbose = await run(['-v'])
    expect(verbose.stderr.trim().split('\n').at(-1)).toMatch(/^tack: 2 tool calls \(1 failed\) · /)
  })

  test('Ctrl-C says "interrupted" on stderr and exits 130', async () => {
    const box = await sandbox()
    const r = await signalDuringBashCall(box, [], 'SIGINT')
    expect(r.code).toBe(130)
    expect(r.stderr).toContain('tack: interrupted\n')
    expect(r.stderr).not.toContain('the turn ended aborted')
  }, 60_000)
})
