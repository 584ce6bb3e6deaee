// Issue 9.6: diffs of write/edit results are bounded — a size cap (diffMaxChars) and a time cap
// (diffTimeoutMs), big diffs off the main thread and stopped on abort, per-site diffs for `edit` —
// and past a cap the result says what changed in counts.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { siteHunk } from '../src/diff.ts'
import { FsToolsConfig } from '../src/index.ts'
import { replaceSites } from '../src/replace-sites.ts'
import { observed, run, textOf } from './support.ts'

const lines = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => `${f(i)}\n`).join('')

/** The former algorithm: each site diffed on the whole text before and after it. */
function reference(text: string, oldText: string, newText: string) {
  let current = text
  let from = 0
  let shift = 0
  const hunks = []
  for (let at = current.indexOf(oldText, from); at !== -1; at = current.indexOf(oldText, from)) {
    const next = current.slice(0, at) + newText + current.slice(at + oldText.length)
    const hunk = siteHunk(current, next)
    if (hunk) {
      hunks.push({ ...hunk, oldStart: hunk.oldStart - shift })
      shift += hunk.newLines - hunk.oldLines
    }
    from = at + newText.length
    current = next
  }
  return hunks
}

const budget = { maxChars: 4_000_000, timeoutMs: 2000, signal: new AbortController().signal }

describe('bounded diffs (issue 9.6)', () => {
  it('per-site windows give the same hunks as whole-file diffs, on random texts and edits', async () => {
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const words = ['a', 'b', 'X', 'X\n', '\n', 'c\nd', '']
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: 5 + random(200) }, () => words[random(words.length)]).join(
        random(2) ? '\n' : '',
      )
      if (!text.includes('X')) continue
      const newText = ['Y', 'Y\nY', '', 'X\nX', 'q\n'][random(5)]
      const count = text.split('X').length - 1
      const got = await replaceSites(text, 'X', newText, count, budget)
      expect(got.hunks, JSON.stringify({ text, newText })).toEqual(reference(text, 'X', newText))
      expect(got.text).toBe(text.split('X').join(newText))
    }
  })

  it('replace_all over 1,000 sites of a 10,000-line file gives 1,000 hunks', async () => {
    const text = lines(10_000, (i) => (i % 10 === 0 ? `target ${i}` : `line ${i}`))
    const { replaceAll } = await observed({ 'big.txt': text })
    const result = await replaceAll('big.txt', 'target', 'hit')
    expect(textOf(result)).toBe('Edited big.txt: replaced 1000 occurrences.')
    const hunks = (result.meta as { hunks: Array<{ oldStart: number; lines: string[] }> }).hunks
    expect(hunks).toHaveLength(1000)
    expect(hunks[999]).toMatchObject({
      oldStart: 9988,
      lines: expect.arrayContaining(['-target 9990', '+hit 9990']),
    })
  })

  it('past diffMaxChars a write reports counts, not a diff', async () => {
    const before = lines(100, (i) => `old ${i}`)
    const { call } = await observed({ 'f.txt': before }, { diffMaxChars: 1000 })
    const after = `${lines(10, (i) => `old ${i}`)}changed\n${lines(89, (i) => `old ${i + 11}`)}`
    const result = await call('write', { file_path: 'f.txt', content: after })
    expect(textOf(result)).toBe(
      `Wrote f.txt (100 lines). No diff (the file is larger than diffMaxChars (1000 characters)): 1 lines removed, 1 added, ${before.length} -> ${after.length} bytes.`,
    )
    expect(result.meta).toEqual({
      path: 'f.txt',
      summary: {
        reason: 'size',
        linesRemoved: 1,
        linesAdded: 1,
        bytesBefore: before.length,
        bytesAfter: after.length,
      },
    })
  })

  it('past diffTimeoutMs a 10,000-line rewrite reports counts; the event loop keeps running meanwhile', async () => {
    const before = lines(10_000, (i) => `alpha ${i}`)
    const after = lines(10_000, (i) => `beta ${i}`)
    const { call } = await observed({ 'f.txt': before }, { diffTimeoutMs: 300 })
    let ticks = 0
    const timer = setInterval(() => ticks++, 20)
    const result = await call('write', { file_path: 'f.txt', content: after })
    clearInterval(timer)
    expect(result.meta).toMatchObject({
      summary: { reason: 'time', linesRemoved: 10_000, linesAdded: 10_000 },
    })
    expect(textOf(result)).toContain(
      'No diff (it would take longer than diffTimeoutMs (300 ms)): 10000 lines removed, 10000 added',
    )
    // Not a timing assertion: the interval ran at all while the diff was being computed.
    expect(ticks).toBeGreaterThan(3)
  })

  it('an abort during a big diff ends the call at once: the file is written, no meta', async () => {
    const before = lines(10_000, (i) => `alpha ${i}`)
    const after = lines(10_000, (i) => `beta ${i}`)
    // No time budget to speak of: only the abort can end this diff early (a finished diff, or one cut by
    // the budget, would leave meta), so the test does not depend on how loaded the machine is.
    const { cwd, ctx, agent } = await observed({ 'f.txt': before }, { diffTimeoutMs: 600_000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const result = await run(
      ctx,
      'write',
      { file_path: 'f.txt', content: after },
      { cwd, agent, signal: controller.signal },
    )
    expect(result.meta).toBeUndefined()
    expect(await readFile(join(cwd, 'f.txt'), 'utf8')).toBe(after)
  })

  it('diffMaxChars and diffTimeoutMs: defaults, configured, rejected', () => {
    const defaults = FsToolsConfig.parse({})
    expect([defaults.diffMaxChars, defaults.diffTimeoutMs]).toEqual([4_000_000, 2000])
    expect(FsToolsConfig.parse({ diffMaxChars: 0, diffTimeoutMs: 50 })).toMatchObject({
      diffMaxChars: 0,
      diffTimeoutMs: 50,
    })
    expect(() => FsToolsConfig.parse({ diffMaxChars: -1 })).toThrow(
      /diffMaxChars: must be an integer 0–268435456/,
    )
    expect(() => FsToolsConfig.parse({ diffTimeoutMs: 5 })).toThrow(
      /diffTimeoutMs: must be an integer 10–600000/,
    )
  })
})
