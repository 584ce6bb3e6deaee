// Issue 12.7: a session's bash spill files (`$TACK_HOME/scratch/<session id>/`) go when the session is
// removed with `tack sessions rm`; other sessions' spill files stay. Through the real binary.
import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeJson } from './helpers.ts'

describe('scratch clean-up (issue 12.7)', () => {
  test('tack sessions rm removes the session’s spill folder and leaves the others', async () => {
    const box = await sandbox()
    await mkdir(box.tackHome, { recursive: true })
    await writeFile(join(box.tackHome, 'config.yml'), 'plugins:\n  bash: { maxOutputBytes: 200 }\n')
    const script = await writeJson(join(box.root, 'script.json'), [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'seq 1 5000' } }] },
      { kind: 'text', text: 'done' },
    ])
    const run = await runTack(
      ['run', '--json', '--permission-mode', 'yolo', '--model', `scripted/${script}`, 'count'],
      { env: box.env, cwd: box.workspace },
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const id = (jsonLines(run.stdout).at(-1) as { sessionId: string }).sessionId
    const scratch = join(box.tackHome, 'scratch')
    const spills = await readdir(join(scratch, id))
    expect(spills).toHaveLength(1)
    expect(spills[0]).toMatch(/^bash-.*\.log$/)
    const other = join(scratch, 'another-session')
    await mkdir(other)
    await writeFile(join(other, 'bash-x.log'), 'kept\n')

    const rm = await runTack(['sessions', 'rm', id], { env: box.env, cwd: box.workspace })
    expect(rm.code).toBe(0)
    expect(existsSync(join(scratch, id))).toBe(false)
    expect(await readdir(other)).toEqual(['bash-x.log'])
  })
})
