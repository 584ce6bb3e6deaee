import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { siteHunk } from '../src/diff.ts'
import { observed, run } from './support.ts'

describe('applied-hunk diffs', () => {
  it('TL-15 three sites two lines apart give three hunks with ±3 context (replace_all sites never merge)', async () => {
    const text = ['a1', 'a2', 'a3', 'X', 'b1', 'b2', 'X', 'c1', 'c2', 'X', 'd1', 'd2', 'd3', ''].join('\n')
    const { replaceAll } = await observed({ 'f.txt': text })
    const result = await replaceAll('f.txt', 'X', 'Y')
    expect(result.meta).toEqual({
      path: 'f.txt',
      hunks: [
        {
          oldStart: 1,
          oldLines: 7,
          newStart: 1,
          newLines: 7,
          lines: [' a1', ' a2', ' a3', '-X', '+Y', ' b1', ' b2', ' X'],
        },
        {
          oldStart: 4,
          oldLines: 7,
          newStart: 4,
          newLines: 7,
          lines: [' Y', ' b1', ' b2', '-X', '+Y', ' c1', ' c2', ' X'],
        },
        {
          oldStart: 7,
          oldLines: 7,
          newStart: 7,
          newLines: 7,
          lines: [' Y', ' c1', ' c2', '-X', '+Y', ' d1', ' d2', ' d3'],
        },
      ],
    })
  })

  it('TL-15 hunks use original-file old lines and final-file new lines when sites change the line count', async () => {
    const text = ['X', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'X', ''].join('\n')
    const { replaceAll } = await observed({ 'f.txt': text })
    const result = await replaceAll('f.txt', 'X', 'Y\nY')
    const hunks = (result.meta as { hunks: Array<{ oldStart: number; newStart: number }> }).hunks
    expect(hunks.map((h) => [h.oldStart, h.newStart])).toEqual([
      [1, 1],
      [6, 7],
    ])
  })

  it('TL-15 one site whose change is split by structuredPatch is joined back into one hunk', () => {
    const before = ['s', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'e', ''].join('\n')
    const after = ['S', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'E', ''].join('\n')
    expect(siteHunk(before, after)).toEqual({
      oldStart: 1,
      oldLines: 9,
      newStart: 1,
      newLines: 9,
      lines: ['-s', '+S', ' m1', ' m2', ' m3', ' m4', ' m5', ' m6', ' m7', '-e', '+E'],
    })
  })

  it('TL-15 an overwriting write gives the whole-file hunks', async () => {
    const { call } = await observed({ 'f.txt': 'a\nb\nc\n' })
    const result = await call('write', { file_path: 'f.txt', content: 'a\nB\nc\nd\n' })
    expect(result.meta).toEqual({
      path: 'f.txt',
      hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [' a', '-b', '+B', ' c', '+d'] }],
    })
  })

  it('TL-15 a CRLF rewrite of an LF file with the same lines gives hunks: []', async () => {
    const { cwd, call } = await observed({ 'f.txt': 'a\nb\nc\n' })
    const result = await call('write', { file_path: 'f.txt', content: 'a\r\nb\r\nc\r\n' })
    expect(result.meta).toEqual({ path: 'f.txt', hunks: [] })
    expect(await readFile(join(cwd, 'f.txt'), 'utf8')).toBe('a\r\nb\r\nc\r\n')
  })

  it('TL-15 a create, a failure and an abort carry no meta', async () => {
    const { cwd, ctx, agent, call } = await observed({ 'f.txt': 'a\n' })
    const created = await call('write', { file_path: 'new.txt', content: 'x\n' })
    expect(created.isError).toBe(false)
    expect(created.meta).toBeUndefined()
    const failed = await call('edit', { file_path: 'f.txt', old_string: 'zz', new_string: 'y' })
    expect(failed.error?.code).toBe('NO_MATCH')
    expect(failed.meta).toBeUndefined()
    const controller = new AbortController()
    controller.abort()
    const aborted = await run(
      ctx,
      'edit',
      { file_path: 'f.txt', old_string: 'a', new_string: 'b' },
      { cwd, agent, signal: controller.signal },
    )
    expect(aborted.error?.code).toBe('ABORTED')
    expect(aborted.meta).toBeUndefined()
    expect(await readFile(join(cwd, 'f.txt'), 'utf8')).toBe('a\n')
  })

  it('TL-15 an edit aborted while it runs carries no meta', async () => {
    const { cwd, ctx, agent } = await observed({ 'f.txt': 'a\n' })
    const controller = new AbortController()
    // Abort from inside the pipeline, once the body is running (a tools/execute wrapper sees it start).
    ctx.on('tools/execute', (_exec, next) => {
      const result = next()
      controller.abort()
      return result
    })
    const result = await run(
      ctx,
      'edit',
      { file_path: 'f.txt', old_string: 'a', new_string: 'b' },
      { cwd, agent, signal: controller.signal },
    )
    expect(result.error?.code).toBe('ABORTED')
    expect(result.meta).toBeUndefined()
  })
})
