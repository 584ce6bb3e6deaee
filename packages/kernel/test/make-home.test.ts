// makeTackHome (docs/decisions/0015-tack-home.md): the home folder is made level by level, owner-only,
// and a path that cannot hold it is a TackHomeError naming the folder — never Node's recursive mkdir,
// which spins forever under /proc.
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTackHome, TackHomeError } from '../src/home.ts'

describe('makeTackHome', () => {
  it('creates the missing levels 0700 and says whether it made the home; an existing one is left as is', () => {
    const root = mkdtempSync(join(tmpdir(), 'tack-home-'))
    const home = join(root, 'a', 'b', 'home')
    expect(makeTackHome(home)).toBe(true)
    for (const dir of [join(root, 'a'), join(root, 'a', 'b'), home])
      expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(makeTackHome(home)).toBe(false)
  })

  it('a file in the path, or as the home, is a TackHomeError naming both', () => {
    const root = mkdtempSync(join(tmpdir(), 'tack-home-'))
    const file = join(root, 'file')
    writeFileSync(file, '')
    expect(() => makeTackHome(join(file, 'x'))).toThrow(
      new TackHomeError(
        `tack's home folder ${join(file, 'x')} cannot be created: ${file} is not a folder; set TACK_HOME to a folder you can write`,
      ),
    )
    expect(() => makeTackHome(file)).toThrow(/is not a folder; set TACK_HOME/)
  })

  it.runIf(process.platform === 'linux')('under /proc it fails at once instead of spinning', () => {
    expect(() => makeTackHome('/proc/tack-home-test/x')).toThrow(
      /cannot be created: this file system does not allow new folders there \(making \/proc\/tack-home-test\)/,
    )
  })
})
