// The streamed replacement of a huge `edit` (docs/decisions/0165-streaming-huge-files.md) against the
// loaded edit's string semantics, on many small texts read a few bytes at a time: sites split across
// reads, CRLF pairs split across reads, `replace_all` or a single site.
import { open, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startsWithCrlf, streamReplace } from '../src/stream-replace.ts'
import { countOccurrences, sha256, toCrlf, toLf, usesCrlf } from '../src/text.ts'
import { seededRandom, tempDir } from './support.ts'

const ALPHABET = ['a', 'b', 'ab', '\n', '\r\n', '\r', 'é', '😀']

function text(next: () => number, length: number): string {
  let out = ''
  while (out.length < length) out += ALPHABET[Math.floor(next() * ALPHABET.length)]
  return out
}

async function streamed(
  path: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  chunk: number,
) {
  const handle = await open(path, 'r')
  try {
    const crlf = await startsWithCrlf(handle, chunk)
    const parts: Buffer[] = []
    const result = await streamReplace({
      handle,
      chunkBytes: chunk,
      crlf,
      oldBytes: Buffer.from(crlf ? toLf(oldString) : oldString),
      newBytes: Buffer.from(crlf ? toLf(newString) : newString),
      replaceAll,
      signal: new AbortController().signal,
      sink: async (bytes) => {
        parts.push(Buffer.from(bytes))
      },
    })
    return { crlf, result, output: Buffer.concat(parts).toString('utf8') }
  } finally {
    await handle.close()
  }
}

describe('streamReplace', () => {
  it('finds, counts and replaces exactly what the loaded edit does, whatever the read size', async () => {
    const dir = await tempDir()
    const path = join(dir, 'f.txt')
    const next = seededRandom(22)
    for (let round = 0; round < 300; round++) {
      const original = text(next, 1 + Math.floor(next() * 60))
      const oldString = text(next, 1 + Math.floor(next() * 3))
      const newString = next() < 0.2 ? '' : text(next, Math.floor(next() * 4))
      const replaceAll = next() < 0.5
      const chunk = 1 + Math.floor(next() * 7)
      await writeFile(path, original)
      const what = JSON.stringify({ original, oldString, newString, replaceAll, chunk })
      const crlf = usesCrlf(original)
      const lfText = crlf ? toLf(original) : original
      const oldText = crlf ? toLf(oldString) : oldString
      const newText = crlf ? toLf(newString) : newString
      const { crlf: seenCrlf, result, output } = await streamed(path, oldString, newString, replaceAll, chunk)
      expect(seenCrlf, what).toBe(crlf)
      const found = countOccurrences(lfText, oldText)
      expect(result.found, what).toBe(found)
      expect(result.inputHash, what).toBe(sha256(Buffer.from(original)))
      expect(result.normalisedBytes, what).toBe(Buffer.byteLength(lfText))
      if (found === 1 || (found > 1 && replaceAll)) {
        const replaced = lfText.split(oldText).join(newText)
        const expected = crlf ? toCrlf(replaced) : replaced
        expect(output, what).toBe(expected)
        expect(result.outputHash, what).toBe(sha256(Buffer.from(expected)))
        expect(result.outputBytes, what).toBe(Buffer.byteLength(expected))
      }
    }
  })
})
