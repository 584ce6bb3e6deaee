// Issue 9 item 8 through the real binary: a broken .claude/settings.json or .codex/hooks.json is named with
// its line and column on every run, `tack hooks list` shows it, `tack doctor` fails with the fix. And
// issue 8 item 3: a relative TACK_HOME resolves against the working folder, never silently ignored.
import { existsSync, statSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runTack, sandbox } from './helpers.ts'

describe('malformed hook files are loud', () => {
  test('9.8 a warning with file and line:column on every run; hooks list shows it; doctor fails with the fix', async () => {
    const box = await sandbox()
    const ws = box.workspace
    const claude = join(ws, '.claude', 'settings.json')
    const codex = join(ws, '.codex', 'hooks.json')
    await mkdir(join(ws, '.claude'))
    await mkdir(join(ws, '.codex'))
    await writeFile(claude, '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n')
    await writeFile(codex, '{"hooks": {"Stop": []}')
    const expected = [
      `tack: hooks-claude: ${claude}: invalid JSON at line 3, column 14: expected a value, found ","`,
      `tack: hooks-codex: ${codex}: invalid JSON at line 1, column 23: expected "," or "}", found the end of the file`,
    ]
    for (let i = 0; i < 2; i++) {
      const run = await runTack(['run', '--trust', '--model', 'scripted/none.json', 'x'], {
        env: box.env,
        cwd: ws,
      })
      for (const line of expected) expect(run.stderr).toContain(line)
    }
    const list = await runTack(['hooks', 'list'], { env: box.env, cwd: ws })
    expect(list.stdout).toContain(`claude (file)`)
    expect(list.stdout).toMatch(/BROKEN/)
    expect(list.stdout).toContain(`from ${claude} — invalid JSON at line 3, column 14`)
    expect(list.stdout).toContain(`from ${codex} — invalid JSON at line 1, column 23`)
    const doctor = await runTack(['doctor', '--model', 'local/m'], { env: box.env, cwd: ws })
    expect(doctor.code).toBe(1)
    expect(doctor.stdout).toContain(`  - ${claude}: invalid JSON at line 3, column 14`)
    expect(doctor.stdout).toContain('fix the file; until then none of its hooks run')
    expect(doctor.stdout).toContain(`  - ${codex}: invalid JSON at line 1, column 23`)
  })
})

describe('TACK_HOME', () => {
  test('8.3 a relative TACK_HOME is resolved against the working folder by every part of tack', async () => {
    const box = await sandbox()
    const env = { ...box.env, TACK_HOME: 'rel-home' }
    const home = join(box.workspace, 'rel-home')
    const doctor = await runTack(['doctor', '--model', 'local/m'], { env, cwd: box.workspace })
    expect(doctor.stdout).toContain(`tack home        ${home}\n`)
    const sessions = await runTack(['sessions', 'list'], { env, cwd: box.workspace })
    expect(sessions.code).toBe(0)
    expect(existsSync(join(home, 'sessions.db'))).toBe(true)
    // the workspace holds this TACK_HOME, so trusting it needs --force (broad-trust.ts)
    expect((await runTack(['trust', '--force'], { env, cwd: box.workspace })).code).toBe(0)
    expect(statSync(join(home, 'trusted-workspaces.json')).mode & 0o777).toBe(0o600)
    const dice = await runTack(['dice', 'list'], { env, cwd: box.workspace })
    expect(dice.code).toBe(0)
  })
})
