// Memory on a 200 MB file in a child process (docs/decisions/0165-streaming-huge-files.md): grep over
// 200 matching one-megabyte lines, on the ripgrep and the pure-Node path, and a write over the file;
// the child's peak RSS may grow by far less than the file's size past the same call on a small file.
// (The real binary's read, edit and grep of such a file: apps/tack/test/e2e-huge-files.test.ts.)
import { execFile } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareJob } from '../src/search-job.ts'
import { tempDir, writeTree } from './support.ts'

const MIB = 1024 * 1024
const CHILD = fileURLToPath(new URL('./huge-file-child.ts', import.meta.url))

/** 200 lines of a mebibyte, each `needle <n> ` then filler. */
function* megabyteLines(): Generator<Buffer> {
  for (let n = 0; n < 200; n++) {
    const head = `needle ${n} `
    yield Buffer.from(`${head}${'z'.repeat(MIB - 1 - head.length)}\n`)
  }
}

let dir: string
beforeAll(async () => {
  dir = await tempDir()
  await pipeline(megabyteLines(), createWriteStream(join(dir, 'big.txt')))
  await writeFile(join(dir, 'small.txt'), 'needle 0 small\nneedle 1 small\n')
}, 60_000)
afterAll(() => rm(dir, { recursive: true, force: true }))

async function inChild(tool: 'grep' | 'write', config: object) {
  const { stdout } = await promisify(execFile)(process.execPath, [CHILD, dir, tool, JSON.stringify(config)], {
    maxBuffer: 16 * MIB,
  })
  return JSON.parse(stdout) as { before: number; after: number; isError: boolean; text: string }
}

describe('a 200 MB file', () => {
  it.each([
    ['ripgrep', 'auto'],
    ['pure Node', 'off'],
  ])(
    'grep (%s) keeps only the shown part of 200 matching 1 MiB lines: peak RSS grows far less than the file',
    async (_, ripgrep) => {
      const result = await inChild('grep', { ripgrep, readMaxLineLength: 80 })
      expect(result.isError).toBe(false)
      const lines = result.text.split('\n').filter((line) => line.startsWith('big.txt:'))
      expect(lines).toHaveLength(200)
      expect(lines[199]).toBe(
        `big.txt:200:needle 199 ${'z'.repeat(69)} ... [line cut: ${MIB - 1} characters in all]`,
      )
      // Measured: about 40 MiB on a loaded 2-core machine; with V8's default young generation in the
      // search worker 85–100; keeping the lines whole, about 620.
      expect(result.after - result.before, JSON.stringify({ ...result, text: '' })).toBeLessThan(64)
    },
    60_000,
  )

  it('write over it streams the old file (read-before-edit hash, counts): peak RSS grows far less than the file', async () => {
    const result = await inChild('write', {})
    expect(result.text).toBe(
      'Wrote big.txt (1 line). No diff (the file is larger than diffMaxChars (4000000 characters)): 200 lines removed, 1 added, 209715200 -> 16 bytes.',
    )
    expect(await readFile(join(dir, 'big.txt'), 'utf8')).toBe('the new content\n')
    // Measured: a few MiB; loading the old file, about 400.
    expect(result.after - result.before, JSON.stringify(result)).toBeLessThan(80)
  }, 60_000)
})

describe('a search batch', () => {
  it('keeps no more matching lines than grep can show, each cut to what it shows', async () => {
    const root = await tempDir()
    const line = `needle ${'x'.repeat(5000)}\n`
    await writeTree(root, { 'a.txt': line.repeat(4), 'b.txt': line.repeat(4), 'c.txt': line.repeat(4) })
    const step = prepareJob({
      grep: {
        pattern: 'needle',
        ignoreCase: false,
        streamMinSize: 10 * MIB,
        chunkBytes: 64 * 1024,
        searchLength: MIB,
        showLength: 20,
        collect: 'lines',
        maxLines: 6,
      },
    })
    const files = ['a.txt', 'b.txt', 'c.txt'].map((relative) => ({ path: join(root, relative), relative }))
    const results = await step(files)
    // grep stops at 6 lines: b.txt gives the last 2 of them and c.txt is not searched.
    expect(results.map((result) => result.lines.length)).toEqual([4, 2, 0])
    expect(results[0].lines[0]).toEqual({ number: 1, text: `needle ${'x'.repeat(13)}`, length: 5007 })
    await rm(root, { recursive: true, force: true })
  })
})
