// A config file that is not valid YAML (or JSON) stops tack with exit 2 and one line on stderr naming
// the file, the line:column and the parser's reason; the parser's code frame (the offending line and a
// caret under it) is not printed. Run `node scripts/build.ts` first: these run the real binary.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runTack, sandbox } from './helpers.ts'
import { startTui } from './pty/tui.ts'

const BROKEN_YAML = 'model: [\n'
const YAML_LINE =
  ':2:1: cannot read YAML: Flow sequence in block collection must be sufficiently indented and end with a ]'

async function brokenConfig(name: string, text: string) {
  const box = await sandbox()
  const file = join(box.root, name)
  await writeFile(file, text)
  return { box, file }
}

describe('a config file with a syntax error', () => {
  it('tack run: exit 2, one stderr line with file:line:column and the reason', async () => {
    const { box, file } = await brokenConfig('broken.yml', BROKEN_YAML)
    const r = await runTack(['run', '--config', file, 'hi'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`tack: ${file}${YAML_LINE}\n`)
  })

  it('tack doctor lists the same line as a problem, goes on with its other checks and exits 1', async () => {
    const { box, file } = await brokenConfig('broken.yml', BROKEN_YAML)
    const r = await runTack(['doctor', '--config', file], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain(`\n  - ${file}${YAML_LINE}\n`)
  })

  it('a JSON config file (JSON is YAML) is reported the same way', async () => {
    const { box, file } = await brokenConfig('broken.json', '{"model": ')
    const r = await runTack(['run', '--config', file, 'hi'], { env: box.env, cwd: box.workspace })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`tack: ${file}:1:11: cannot read YAML: Flow map must end with a }\n`)
  })

  it('the interactive start shows the same single line and exits 2', async () => {
    const { box, file } = await brokenConfig('broken.yml', BROKEN_YAML)
    const term = startTui({ cwd: box.workspace, env: box.env, args: ['--config', file] })
    try {
      expect(await term.exit).toMatchObject({ exitCode: 2 })
      // the raw bytes, not the screen: the terminal wraps a long line, and a code frame would be extra lines
      expect(term.raw().replace(/\r/g, '')).toBe(`tack: ${file}${YAML_LINE}\n`)
    } finally {
      await term.close()
    }
  })
})
