// docs/decisions/0145-private-files.md: session content is 0600 in 0700 folders whatever the umask, and a
// file or folder left open by an older tack is tightened when tack writes it again.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  privateFolder,
  replacePrivateFile,
  replacePrivateFileAsync,
  tightenPath,
  writePrivateFile,
} from '../src/private-files.ts'

const modeOf = (path: string) => statSync(path).mode & 0o777
let umask: number
beforeAll(() => {
  umask = process.umask(0o022) // the usual one, under which a plain write is 0644
})
afterAll(() => {
  process.umask(umask)
})
const root = () => mkdtempSync(join(tmpdir(), 'tack-private-'))

test('writePrivateFile creates the file 0600 and leaves its folder as it is; a missing folder is ENOENT', () => {
  const dir = root()
  chmodSync(dir, 0o755)
  const file = join(dir, 'x.jsonl')
  writePrivateFile(file, 'one\n')
  writePrivateFile(file, 'two\n', { append: true })
  expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n')
  expect([modeOf(file), modeOf(dir)]).toEqual([0o600, 0o755])
  expect(() => writePrivateFile(join(dir, 'none', 'x'), '')).toThrow(/ENOENT/)
})

test('replacePrivateFile creates missing folders 0700; the existing parent keeps its mode', () => {
  const dir = root()
  chmodSync(dir, 0o755)
  const file = join(dir, 'a', 'b', 'x.json')
  replacePrivateFile(file, '{}')
  expect([modeOf(file), modeOf(join(dir, 'a')), modeOf(join(dir, 'a', 'b')), modeOf(dir)]).toEqual([
    0o600, 0o700, 0o700, 0o755,
  ])
})

test('an existing 0644 file is tightened before the write, appending or replacing', () => {
  const dir = root()
  for (const append of [false, true]) {
    const file = join(dir, `old-${append}`)
    writeFileSync(file, 'old\n', { mode: 0o644 })
    expect(modeOf(file)).toBe(0o644)
    writePrivateFile(file, 'new\n', { append })
    expect(modeOf(file)).toBe(0o600)
  }
})

test('an executable keeps its owner bits and loses the others', () => {
  const file = join(root(), 'tool')
  writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 })
  tightenPath(file)
  expect(modeOf(file)).toBe(0o700)
})

test('privateFolder makes a new folder 0700 and tightens an existing 0755 one', () => {
  const dir = root()
  const made = privateFolder(join(dir, 'new', 'deeper'))
  expect([modeOf(made), modeOf(join(dir, 'new'))]).toEqual([0o700, 0o700])
  const old = join(dir, 'old')
  mkdirSync(old, { mode: 0o755 })
  privateFolder(old)
  expect(modeOf(old)).toBe(0o700)
})

test('replacePrivateFile(Async) replace a 0644 file with a 0600 one and leave no temporary file', async () => {
  const dir = root()
  const a = join(dir, 'a.json')
  const b = join(dir, 'b.json')
  writeFileSync(a, '{}', { mode: 0o644 })
  writeFileSync(b, '{}', { mode: 0o644 })
  replacePrivateFile(a, '{"a":1}')
  await replacePrivateFileAsync(b, '{"b":1}')
  expect([readFileSync(a, 'utf8'), readFileSync(b, 'utf8')]).toEqual(['{"a":1}', '{"b":1}'])
  expect([modeOf(a), modeOf(b)]).toEqual([0o600, 0o600])
  expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json'])
})

test('a missing path is left missing by tightenPath', () => {
  const path = join(root(), 'none')
  tightenPath(path)
  expect(statSync(path, { throwIfNoEntry: false })).toBeUndefined()
})
