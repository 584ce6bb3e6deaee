// The file text copied into tool_response (Read's content, Write/Edit's originalFile) comes only from
// regular files of a bounded size: a FIFO must not block tack's main thread (found by a user-style run:
// the model reading a named pipe hung `tack run`, deaf to SIGTERM).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { MAX_PAYLOAD_FILE_BYTES, readTextOrNull } from '../src/claude-fields.ts'

const dir = mkdtempSync(join(tmpdir(), 'tack-payload-read-'))

test('a regular file is read; a missing one is null', () => {
  writeFileSync(join(dir, 'a.txt'), 'hello\n')
  expect(readTextOrNull(join(dir, 'a.txt'))).toBe('hello\n')
  expect(readTextOrNull(join(dir, 'missing.txt'))).toBeNull()
})

test('a FIFO with no writer is null at once, not a hang', () => {
  const fifo = join(dir, 'pipe')
  execFileSync('mkfifo', [fifo])
  expect(readTextOrNull(fifo)).toBeNull()
})

test('a file over the cap is null (sparse, so the test writes nothing)', () => {
  const big = join(dir, 'big.txt')
  writeFileSync(big, '')
  truncateSync(big, MAX_PAYLOAD_FILE_BYTES + 1)
  expect(readTextOrNull(big)).toBeNull()
})
