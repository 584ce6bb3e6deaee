// readBoundedText (docs/decisions/0260-mcp-hostile-sources.md): a regular file within the bound is read;
// at one byte past it, a FIFO, a device or a folder is refused without blocking; a missing file says so.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { readBoundedText } from '../src/bounded-file.ts'

test('the bound is inclusive; anything but a regular file is refused; missing is told apart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bounded-'))
  const exact = join(dir, 'exact')
  writeFileSync(exact, 'x'.repeat(10))
  expect(readBoundedText(exact, 10)).toEqual({ ok: true, text: 'x'.repeat(10) })
  expect(readBoundedText(exact, 9)).toEqual({
    ok: false,
    missing: false,
    problem: 'is larger than 9 bytes (10)',
  })
  const fifo = join(dir, 'fifo')
  execFileSync('mkfifo', [fifo])
  expect(readBoundedText(fifo, 10)).toMatchObject({
    ok: false,
    missing: false,
    problem: 'is not a regular file',
  })
  expect(readBoundedText('/dev/zero', 10)).toMatchObject({ ok: false, problem: 'is not a regular file' })
  expect(readBoundedText(dir, 10)).toMatchObject({ ok: false, problem: 'is not a regular file' })
  expect(readBoundedText(join(dir, 'none'), 10)).toMatchObject({ ok: false, missing: true })
})
