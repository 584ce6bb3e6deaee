// Image blocks (docs/decisions/0255-image-content.md): built with their SHA-256 and size from base64,
// refused when the type or the base64 is not an image's; accepted in a tool result and a message by
// the log's payload checks only with every field; words stand for them where only words go.
import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { blockText, contentText, formatBytes, imageBlock, isImageBlock } from '../src/index.ts'
import { newSession } from './helpers.ts'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

describe('image blocks', () => {
  test('imageBlock: the base64 kept as given, its decoded size and SHA-256', () => {
    const block = imageBlock('image/png', PNG)
    const bytes = Buffer.from(PNG, 'base64')
    expect(block).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: PNG,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
    })
    expect(isImageBlock(block)).toBe(true)
  })

  test('not an image: a non-image type, text that is not base64, bytes that are no PNG, JPEG, GIF or WebP', () => {
    expect(imageBlock('text/plain', PNG)).toBeUndefined()
    expect(imageBlock('image/png', 'not base64!')).toBeUndefined()
    expect(imageBlock('image/png', 'abc')).toBeUndefined()
    expect(imageBlock('image/png', Buffer.from('<svg/>').toString('base64'))).toBeUndefined()
    expect(
      imageBlock(
        'image/svg+xml',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
      ),
    ).toBeUndefined()
  })

  test("the block's type is the one its bytes show, whatever was declared", () => {
    const b64 = (bytes: number[], tail = '') =>
      Buffer.concat([Buffer.from(bytes), Buffer.from(tail)]).toString('base64')
    expect(imageBlock('image/png', b64([0xff, 0xd8, 0xff, 0xe0]))?.mimeType).toBe('image/jpeg')
    expect(imageBlock('image/jpeg', PNG)?.mimeType).toBe('image/png')
    expect(imageBlock('image/png', b64([], 'GIF89a..'))?.mimeType).toBe('image/gif')
    expect(imageBlock('image/png', b64([], 'RIFF\0\0\0\0WEBPVP8 '))?.mimeType).toBe('image/webp')
  })

  test('where only words go, an image is its note', () => {
    const block = imageBlock('image/png', PNG)
    if (!block) throw new Error('not an image')
    expect(blockText(block)).toBe('[Image: image/png, 70 bytes]')
    expect(contentText([{ type: 'text', text: 'see' }, block])).toBe('see\n[Image: image/png, 70 bytes]')
    expect([formatBytes(840), formatBytes(12 * 1024), formatBytes(1.5 * 1024 * 1024)]).toEqual([
      '840 B',
      '12 KB',
      '1.5 MB',
    ])
  })

  test('the log takes an image block in a tool result, and refuses one missing its hash', () => {
    const s = newSession()
    const block = imageBlock('image/png', PNG)
    if (!block) throw new Error('not an image')
    s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    s.append('user/message', { content: [{ type: 'text', text: 'shoot' }], source: { kind: 'user' } })
    s.append('step/start', { turn: 1, step: 1 })
    s.append('assistant/message', {
      turn: 1,
      step: 1,
      content: [{ type: 'tool-call', callId: 'c1', name: 'camera', arguments: '{}' }],
      finishReason: 'tool-calls',
    })
    const { sha256: _gone, ...unhashed } = block
    expect(() =>
      s.append('tool/result', { callId: 'c1', name: 'camera', content: [unhashed as never], isError: false }),
    ).toThrow(/content\[0\] must be \{type: 'image', mimeType, data, sha256, bytes\}/)
    s.append('tool/result', { callId: 'c1', name: 'camera', content: [block], isError: false })
    expect(s.deriveMessages().at(-1)).toMatchObject({ role: 'tool', content: [block] })
  })
})
