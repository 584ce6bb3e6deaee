// `tack`, `tack -c`, `tack -r [id]` from the real binary when there is no terminal (pipes, scripts, CI):
// one line pointing to `tack run`, exit 2 — never a half-drawn screen. The screen itself is tested in
// packages/tui (keys on a real kernel) and by the pseudo-terminal acceptance tests.
import { describe, expect, test } from 'vitest'
import { runTack, sandbox } from './helpers.ts'

describe('tack without a terminal', () => {
  test.each([[[]], [['-c']], [['-r']], [['--resume']], [['-r', 'abc']], [['--model', 'x/y']]])(
    'tack %j: one line naming tack run, exit 2',
    async (args) => {
      const box = await sandbox()
      const r = await runTack(args, { env: box.env, cwd: box.workspace })
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(
        'tack: the interactive UI needs a terminal on stdin and stdout; for pipes and scripts use `tack run "task"`\n',
      )
    },
  )

  test('a bare -r belongs to the UI only: tack run -r still wants its id', async () => {
    const box = await sandbox()
    const r = await runTack(['run', '-r'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('tack: tack run: --resume needs a value (see tack run --help)\n')
  })

  test('--json is for headless runs', async () => {
    const box = await sandbox()
    const r = await runTack(['--json'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('tack: --json belongs to headless runs: tack run --json "task"\n')
  })

  test('--help lists the interactive modes and exits 0', async () => {
    const box = await sandbox()
    const r = await runTack(['--help'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^ {2}tack {23}the interactive terminal UI/m)
    expect(r.stdout).toContain('tack -r [ID]')
  })
})
