// The counts an overwriting `write` of a huge file reports, computed with the old file streamed
// (docs/decisions/0165-streaming-huge-files.md), against `summariseChange` on both sides loaded:
// many small pairs of texts (shared heads and tails, newline edges), read a few bytes at a time.
import { open, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { summariseChange } from '../src/diff.ts'
import { streamedWriteSummary } from '../src/stream-summary.ts'
import { sha256 } from '../src/text.ts'
import { seededRandom, tempDir } from './support.ts'

const ALPHABET = ['a', 'b', '\n', '\n\n', 'ab\n']

function text(next: () => number, length: number): string {
  let out = ''
  while (out.length < length) out += ALPHABET[Math.floor(next() * ALPHABET.length)]
  return out
}

describe('streamedWriteSummary', () => {
  it('counts what summariseChange counts on the loaded sides, whatever the read size', async () => {
    const dir = await tempDir()
    const path = join(dir, 'f.txt')
    const next = seededRandom(9)
    const signal = new AbortController().signal
    for (let round = 0; round < 400; round++) {
      // Shared heads and tails around a changed middle, sometimes empty sides.
      const head = text(next, Math.floor(next() * 12))
      const tail = text(next, Math.floor(next() * 12))
      const before = next() < 0.05 ? '' : head + text(next, Math.floor(next() * 8)) + tail
      const after = next() < 0.05 ? '' : head + text(next, Math.floor(next() * 8)) + tail
      if (before === after) continue
      const chunk = 1 + Math.floor(next() * 6)
      await writeFile(path, before)
      const handle = await open(path, 'r')
      try {
        const streamed = await streamedWriteSummary(handle, before.length, Buffer.from(after), chunk, signal)
        const loaded = await summariseChange(before, after, 'size', signal)
        expect(streamed.summary, JSON.stringify({ before, after, chunk })).toEqual(loaded)
        expect(streamed.inputHash).toBe(sha256(before))
      } finally {
        await handle.close()
      }
    }
  })
})
