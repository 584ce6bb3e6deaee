// grep's rg pre-filter reads file names from `rg --json` (docs/decisions/0330-search-at-ripgrep-speed.md):
// exact names from `begin` messages, `match` messages (which carry whole lines) dropped as they stream,
// and anything unexpected reported as no listing, so the caller walks instead.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { JsonFileNames } from '../src/ripgrep-json.ts'
import { tempDir, writeTree } from './support.ts'

const begin = (text: string) => `{"type":"begin","data":{"path":{"text":${JSON.stringify(text)}}}}\n`
const match = (text: string, line: string) =>
  `{"type":"match","data":{"path":{"text":${JSON.stringify(text)}},"lines":{"text":${JSON.stringify(line)}},"line_number":1}}\n`
const end = (text: string) =>
  `{"type":"end","data":{"path":{"text":${JSON.stringify(text)}},"binary_offset":null}}\n`
const summary = (n: number) =>
  `{"data":{"elapsed_total":{"secs":0},"stats":{"searches_with_match":${n}}},"type":"summary"}\n`

/** Feeds `text` in pieces of `size` bytes. */
function read(text: string, size: number): string[] | undefined {
  const reader = new JsonFileNames()
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size))
  return reader.names()
}

describe('JsonFileNames', () => {
  it('reads the names of begin messages whatever the chunking, a newline in a name included', () => {
    const output = `${begin('a\nb.txt')}${match('a\nb.txt', 'needle\n')}${end('a\nb.txt')}${begin('src/c.ts')}${match('src/c.ts', 'x needle\n')}${end('src/c.ts')}${summary(2)}`
    for (const size of [1, 3, 7, 64, 100_000])
      expect(read(output, size), `chunks of ${size}`).toEqual(['a\nb.txt', 'src/c.ts'])
  })

  it('decodes a name rg gives as bytes (not UTF-8) as the whole output was decoded before', () => {
    const bytes = Buffer.from([0x78, 0xff, 0x79, 0x2e, 0x74, 0x78, 0x74]).toString('base64')
    const output = `{"type":"begin","data":{"path":{"bytes":"${bytes}"}}}\n${summary(1)}`
    expect(read(output, 5)).toEqual(['x\ufffdy.txt'])
  })

  it('drops a match message unread: a 30 MB line is never joined or parsed', () => {
    const reader = new JsonFileNames()
    reader.push(Buffer.from(begin('big.js')))
    reader.push(Buffer.from('{"type":"match","data":{"lines":{"text":"'))
    const piece = Buffer.alloc(1024 * 1024, 0x61)
    for (let i = 0; i < 30; i++) reader.push(piece)
    // Not JSON: had the line been kept and parsed, the output would count as broken (no listing).
    reader.push(Buffer.from(`"}} no longer JSON\n${end('big.js')}${summary(1)}`))
    expect(reader.names()).toEqual(['big.js'])
  })

  it('is no listing when the output is not rg JSON or its count does not add up', () => {
    expect(read('not json\n', 4)).toBeUndefined()
    expect(read(`${begin('a.ts')}${summary(2)}`, 8)).toBeUndefined()
    expect(read(begin('a.ts'), 8)).toBeUndefined() // no summary: rg was cut short
    expect(read(`${begin('a.ts')}{"type":"begin","data":{}}\n${summary(2)}`, 8)).toBeUndefined()
  })

  it("reads the installed rg's own output", async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a\nb.txt': 'needle\n', 'c.txt': 'no\n', 'd/e.ts': 'x\nneedle\nneedle\n' })
    const out = execFileSync('rg', ['--json', '--max-count=1', '--fixed-strings', '-e', 'needle'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'], // with a pipe for stdin rg would search stdin
    })
    const reader = new JsonFileNames()
    reader.push(out)
    expect(reader.names()?.sort()).toEqual(['a\nb.txt', 'd/e.ts'])
  })
})
