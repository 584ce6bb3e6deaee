// An MCP result as content (spec 55-mcp.md M4, docs/decisions/0255-image-content.md): words and images
// in the server's order; past the cut the cut words first, then the images; structuredContent's JSON as
// the words beside the images; an image block that is not an image's, an error result and audio as notes.
import { describe, expect, test } from 'vitest'
import { cutToBytes } from '../src/cut.ts'
import { resultContent, resultText } from '../src/result-content.ts'

const PNG = 'iVBORw0KGgo='
const image = { type: 'image', mimeType: 'image/png', data: PNG }
const keep = (text: string) => text

describe('resultContent', () => {
  test("words and images in the server's order, words between images joined", () => {
    const content = resultContent(
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
          image,
          { type: 'text', text: 'c' },
        ],
      },
      keep,
    )
    expect(content.map((b) => b.type)).toEqual(['text', 'image', 'text'])
    expect(content[0]).toEqual({ type: 'text', text: 'a\nb' })
    expect(content[1]).toMatchObject({ type: 'image', mimeType: 'image/png', data: PNG, bytes: 8 })
  })

  test('an image alone is the whole content; a result of words alone is one text block', () => {
    expect(resultContent({ content: [image] }, keep).map((b) => b.type)).toEqual(['image'])
    expect(resultContent({ content: [{ type: 'text', text: 'x' }] }, keep)).toEqual([
      { type: 'text', text: 'x' },
    ])
  })

  test('past the cut: the cut words, then the images', () => {
    const long = 'y'.repeat(2_000)
    const content = resultContent(
      { content: [{ type: 'text', text: long }, image, { type: 'text', text: long }] },
      (text) => cutToBytes(text, 1_024),
    )
    expect(content.map((b) => b.type)).toEqual(['text', 'image'])
    expect(content[0]?.text).toContain('past plugins.mcp.maxResultBytes (1024)')
  })

  test("structuredContent's JSON is the words; the images follow", () => {
    const content = resultContent({ structuredContent: { ok: true }, content: [image] }, keep)
    expect(content[0]).toEqual({ type: 'text', text: '{"ok":true}' })
    expect(content[1]?.type).toBe('image')
  })

  test('an image block that is not an image (type, base64) and audio are notes', () => {
    const content = resultContent(
      {
        content: [
          { type: 'image', mimeType: 'text/html', data: PNG },
          { type: 'image', mimeType: 'image/png', data: '%%%' },
          { type: 'audio', mimeType: 'audio/wav', data: PNG },
        ],
      },
      keep,
    )
    expect(content).toEqual([
      {
        type: 'text',
        text: '[Image: text/html, 8 bytes, not shown]\n[Image: image/png, 2 bytes, not shown]\n[Audio: audio/wav, 8 bytes, not shown]',
      },
    ])
  })

  test('an error result is words only, its images as notes', () => {
    expect(resultText({ isError: true, content: [{ type: 'text', text: 'failed' }, image] })).toBe(
      'failed\n[Image: image/png, 8 bytes, not shown]',
    )
  })
})
