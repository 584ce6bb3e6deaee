// Real image files of any size for tests (docs/decisions/0285-user-images.md): a PNG encoded here
// (signature, IHDR, one zlib-deflated IDAT of grey rows, IEND, each chunk with its CRC), which any
// decoder opens, and the headers of a JPEG, GIF and WebP whose sizes tack reads without decoding.
import { crc32, deflateSync } from 'node:zlib'

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A `width`×`height` greyscale PNG (8 bits a pixel); `noise` fills it with varied pixels (it compresses less). */
export function pngOf(width: number, height: number, options: { noise?: boolean } = {}): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 0 // greyscale
  const row = width + 1 // filter byte, then one byte a pixel
  const raw = Buffer.alloc(row * height, 0x80)
  let seed = 0x2545f491
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0
    if (!options.noise) continue
    for (let x = 1; x < row; x++) {
      // xorshift32: bytes deflate cannot shrink
      seed ^= seed << 13
      seed ^= seed >>> 17
      seed ^= seed << 5
      raw[y * row + x] = seed & 0xff
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The start of a baseline JPEG of that size: SOI, an APP0 segment, then SOF0 (no image data). */
export function jpegHeaderOf(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0])
  const sof = Buffer.alloc(19)
  sof.set([0xff, 0xc0, 0x00, 0x11, 8])
  sof.writeUInt16BE(height, 5)
  sof.writeUInt16BE(width, 7)
  sof[9] = 3
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof])
}

/** The start of a GIF89a of that size (its logical screen descriptor). */
export function gifHeaderOf(width: number, height: number): Buffer {
  const b = Buffer.alloc(13)
  b.write('GIF89a', 0, 'latin1')
  b.writeUInt16LE(width, 6)
  b.writeUInt16LE(height, 8)
  return b
}

/** The start of an extended WebP (`VP8X`) of that size. */
export function webpHeaderOf(width: number, height: number): Buffer {
  const b = Buffer.alloc(30)
  b.write('RIFF', 0, 'latin1')
  b.writeUInt32LE(22, 4)
  b.write('WEBPVP8X', 8, 'latin1')
  b.writeUInt32LE(10, 16)
  b.writeUIntLE(width - 1, 24, 3)
  b.writeUIntLE(height - 1, 27, 3)
  return b
}
