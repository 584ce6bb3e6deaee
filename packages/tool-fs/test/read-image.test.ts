// `read` of an image file (85-skills-and-commands.md I2, docs/decisions/0285-user-images.md): through
// the real tools pipeline, a PNG/JPEG/GIF/WebP by its first bytes is answered as a line naming it and
// an image block; past readImageMaxBytes or readImageMaxLongEdge the answer is a note, the file unread;
// other binaries are still refused, and a file named .png that is text is read as text.
import { createHash } from 'node:crypto'
import { FsToolsConfig } from '../src/config.ts'
import { gifHeaderOf, jpegHeaderOf, pngOf, webpHeaderOf } from '@tack/session/testing'
import { describe, expect, it } from 'vitest'
import { fsContext, run, tempDir, textOf, writeTree } from './support.ts'

describe('read of an image file', () => {
  it('I2 a PNG is an image block (base64, sha256, size) after a line naming its type, bytes and pixels', async () => {
    const cwd = await tempDir()
    const png = pngOf(64, 48)
    await writeTree(cwd, { 'shots/screen.png': png })
    const ctx = await fsContext()
    const result = await run(ctx, 'read', { file_path: 'shots/screen.png' }, { cwd })
    expect(result.isError).toBe(false)
    expect(result.content).toEqual([
      { type: 'text', text: `[shots/screen.png: image/png image, ${png.length} B, 64×48 px.]` },
      {
        type: 'image',
        mimeType: 'image/png',
        data: png.toString('base64'),
        sha256: createHash('sha256').update(png).digest('hex'),
        bytes: png.length,
      },
    ])
  })

  it('I2 JPEG, GIF and WebP by their first bytes, whatever the name', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, {
      'photo.bin': jpegHeaderOf(1200, 900),
      'anim.gif': gifHeaderOf(10, 10),
      'pic.webp': webpHeaderOf(300, 200),
    })
    const ctx = await fsContext()
    for (const [file, type, size] of [
      ['photo.bin', 'image/jpeg', '1200×900'],
      ['anim.gif', 'image/gif', '10×10'],
      ['pic.webp', 'image/webp', '300×200'],
    ]) {
      const result = await run(ctx, 'read', { file_path: file }, { cwd })
      expect(result.content.map((b) => b.type)).toEqual(['text', 'image'])
      expect(textOf(result)).toContain(`${size} px`)
      expect(result.content[1]).toMatchObject({ type: 'image', mimeType: type })
    }
  })

  it('I2 past readImageMaxLongEdge (default 8000) or readImageMaxBytes: a note, no image', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, {
      'wide.png': pngOf(8001, 2),
      'ok.png': pngOf(8000, 2),
      'noisy.png': pngOf(100, 100, { noise: true }),
    })
    const defaults = await fsContext()
    expect(FsToolsConfig.parse({}).readImageMaxLongEdge).toBe(8000)
    expect(FsToolsConfig.parse({}).readImageMaxBytes).toBe(3_932_160)
    const wide = await run(defaults, 'read', { file_path: 'wide.png' }, { cwd })
    expect(wide.content.map((b) => b.type)).toEqual(['text'])
    expect(textOf(wide)).toMatch(/8001×2 px: not read, past the read tool's readImageMaxLongEdge \(8000 px/)
    expect((await run(defaults, 'read', { file_path: 'ok.png' }, { cwd })).content[1]?.type).toBe('image')
    const small = await fsContext({ readImageMaxLongEdge: 50, readImageMaxBytes: 1024 })
    expect(textOf(await run(small, 'read', { file_path: 'ok.png' }, { cwd }))).toContain('past the read tool')
    const fewBytes = await fsContext({ readImageMaxBytes: 1024 })
    const noisy = await run(fewBytes, 'read', { file_path: 'noisy.png' }, { cwd })
    expect(textOf(noisy)).toMatch(/not read, past the read tool's readImageMaxBytes \(1 KB\)/)
    expect(() => FsToolsConfig.parse({ readImageMaxLongEdge: 0 })).toThrow(/readImageMaxLongEdge/)
    expect(() => FsToolsConfig.parse({ readImageMaxBytes: 21 * 1024 * 1024 })).toThrow(/readImageMaxBytes/)
  })

  it('I2 another binary is still refused, and text named .png is read as text', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'blob.bin': Buffer.from([1, 0, 2, 3]), 'fake.png': 'just words\n' })
    const ctx = await fsContext()
    const blob = await run(ctx, 'read', { file_path: 'blob.bin' }, { cwd })
    expect(blob.isError).toBe(true)
    expect(textOf(blob)).toContain('binary file')
    expect(textOf(await run(ctx, 'read', { file_path: 'fake.png' }, { cwd }))).toBe('1\tjust words')
  })
})
