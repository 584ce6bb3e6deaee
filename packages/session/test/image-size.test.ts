// Image sizes read from headers (docs/decisions/0285-user-images.md), for each of the four types.
import { describe, expect, test } from 'vitest'
import {
  formatSize,
  imageBlockOfBytes,
  imageBlockSize,
  imageSize,
  imageTypeOf,
  longEdge,
} from '../src/index.ts'
import { gifHeaderOf, jpegHeaderOf, pngOf, webpHeaderOf } from '../src/testing/index.ts'

describe('imageSize reads width and height from the header', () => {
  test('PNG (IHDR), JPEG (SOF0 after APP0), GIF (screen descriptor), WebP (VP8X)', () => {
    expect(imageSize(pngOf(300, 20))).toEqual({ width: 300, height: 20 })
    expect(imageSize(jpegHeaderOf(4032, 3024))).toEqual({ width: 4032, height: 3024 })
    expect(imageSize(gifHeaderOf(640, 480))).toEqual({ width: 640, height: 480 })
    expect(imageSize(webpHeaderOf(9000, 12))).toEqual({ width: 9000, height: 12 })
  })

  test('WebP lossy (VP8 key frame) and lossless (VP8L)', () => {
    const lossy = Buffer.alloc(30)
    lossy.write('RIFF', 0, 'latin1')
    lossy.write('WEBPVP8 ', 8, 'latin1')
    lossy.set([0, 0, 0, 0x9d, 0x01, 0x2a], 20)
    lossy.writeUInt16LE(1024, 26)
    lossy.writeUInt16LE(768, 28)
    expect(imageSize(lossy)).toEqual({ width: 1024, height: 768 })
    const lossless = Buffer.alloc(25)
    lossless.write('RIFF', 0, 'latin1')
    lossless.write('WEBPVP8L', 8, 'latin1')
    lossless[20] = 0x2f
    lossless.writeUInt32LE((200 - 1) | ((100 - 1) << 14), 21)
    expect(imageSize(lossless)).toEqual({ width: 200, height: 100 })
  })

  test('truncated or foreign headers give no size', () => {
    expect(imageSize(pngOf(5, 5).subarray(0, 20))).toBeUndefined()
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeUndefined()
    expect(imageSize(Buffer.from('hello world, not an image'))).toBeUndefined()
    expect(imageSize(jpegHeaderOf(0, 10))).toBeUndefined()
  })

  test('an image block from file bytes: its type by signature, its size from its base64', () => {
    const block = imageBlockOfBytes(pngOf(40, 30))
    expect(block?.mimeType).toBe('image/png')
    expect(block && imageBlockSize(block)).toEqual({ width: 40, height: 30 })
    expect(imageBlockOfBytes(Buffer.from('<svg/>'))).toBeUndefined()
    expect(imageTypeOf(gifHeaderOf(1, 1))).toBe('image/gif')
    expect(longEdge({ width: 3, height: 9 })).toBe(9)
    expect(formatSize({ width: 3, height: 9 })).toBe('3×9 px')
  })
})
