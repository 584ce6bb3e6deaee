// A cloned repository's files reach the user's terminal inside tack's messages (the untrusted notice
// names the config keys it ignored; a config error names the bad key). An escape sequence hidden in a
// YAML key must be shown, not obeyed: here an OSC sequence that would retitle the terminal window.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { printable } from '../src/printable.ts'
import { runTack, sandbox } from './helpers.ts'

const EVIL_KEY = '"evil\\e]0;pwned\\a": 1\n' // YAML double quotes: \e is ESC, \a is BEL

describe('text from a hostile repository reaches the terminal escaped', () => {
  it('printable shows control characters (U+0000 to U+009F) as \\xNN and keeps newlines, tabs and unicode', () => {
    expect(printable('a\x1b]0;t\x07b\x9bc\td\ne — é')).toBe('a\\x1b]0;t\\x07b\\x9bc\td\ne — é')
  })

  it('the untrusted notice and a trusted config error carry no raw control character', async () => {
    const box = await sandbox()
    await mkdir(join(box.workspace, '.tack'))
    await writeFile(join(box.workspace, '.tack', 'config.yml'), EVIL_KEY)
    const untrusted = await runTack(['run', '--model', 'scripted/none', 'hi'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(untrusted.stderr).toContain('evil\\x1b]0;pwned\\x07')
    expect(untrusted.stderr).not.toMatch(/[\x07\x1b]/)
    const trusted = await runTack(['run', '--trust', '--model', 'scripted/none', 'hi'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(trusted.code).toBe(2)
    expect(trusted.stderr).toContain('evil\\x1b]0;pwned\\x07: unknown key')
    expect(trusted.stderr).not.toMatch(/[\x07\x1b]/)
  })
})
