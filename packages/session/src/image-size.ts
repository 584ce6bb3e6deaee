// An image's width and height read from its header, without decoding it
// (docs/decisions/0285-user-images.md): providers refuse images past a size in pixels (Anthropic past
// 8000 px on a side), and once in the log an image goes out with every later request, so tack checks
// the pixels before an image is logged. Each reader follows the format's own layout:
//   PNG   the IHDR chunk, always first: width and height big-endian at bytes 16 and 20;
//   GIF   the logical screen descriptor: width and height little-endian at bytes 6 and 8;
//   JPEG  the first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC), walked to segment by segment;
//   WebP  the first chunk: `VP8 ` (lossy: 14-bit sizes in the key frame header), `VP8L` (lossless:
//         14-bit sizes minus one after the 0x2f signature), or `VP8X` (extended: 24-bit sizes minus one).

/** Pixels of an image. */
export interface ImageSize {
  readonly width: number
  readonly height: number
}

/** The size `bytes` declare, or undefined when they are no PNG, JPEG, GIF or WebP whose header is whole. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const ascii = (from: number, to: number) => b.subarray(from, to).toString('latin1')
  let size: ImageSize | undefined
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && ascii(12, 16) === 'IHDR')
    size = { width: b.readUInt32BE(16), height: b.readUInt32BE(20) }
  else if (b.length >= 10 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a'))
    size = { width: b.readUInt16LE(6), height: b.readUInt16LE(8) }
  else if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) size = jpegSize(b)
  else if (b.length >= 16 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') size = webpSize(b)
  return size && size.width > 0 && size.height > 0 ? size : undefined
}

/** Markers that are SOF in name but carry no frame size: DHT (0xC4), JPG (0xC8), DAC (0xCC). */
const NOT_FRAME = new Set([0xc4, 0xc8, 0xcc])

function jpegSize(b: Buffer): ImageSize | undefined {
  let at = 2
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return undefined
    const marker = b[at + 1] as number
    // fill bytes (FF FF …) and markers without a length (RSTn, TEM)
    if (marker === 0xff) {
      at++
      continue
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2
      continue
    }
    const length = b.readUInt16BE(at + 2)
    if (marker >= 0xc0 && marker <= 0xcf && !NOT_FRAME.has(marker)) {
      if (at + 9 > b.length) return undefined
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) }
    }
    // start of scan before any frame: no size to be found
    if (marker === 0xda || length < 2) return undefined
    at += 2 + length
  }
  return undefined
}

function webpSize(b: Buffer): ImageSize | undefined {
  const chunk = b.subarray(12, 16).toString('latin1')
  const data = 20
  if (chunk === 'VP8 ' && b.length >= data + 10) {
    // a key frame: 3 bytes of frame tag, the start code 9D 01 2A, then 14-bit width and height
    if (b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) return undefined
    return { width: b.readUInt16LE(data + 6) & 0x3fff, height: b.readUInt16LE(data + 8) & 0x3fff }
  }
  if (chunk === 'VP8L' && b.length >= data + 5) {
    if (b[data] !== 0x2f) return undefined
    const bits = b.readUInt32LE(data + 1)
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  if (chunk === 'VP8X' && b.length >= data + 10)
    return { width: b.readUIntLE(data + 4, 3) + 1, height: b.readUIntLE(data + 7, 3) + 1 }
  return undefined
}

/** The size an image block's bytes declare (its base64 decoded; a header too short to tell: undefined). */
export function imageBlockSize(block: { readonly data: string }): ImageSize | undefined {
  return imageSize(Buffer.from(block.data, 'base64'))
}

/** The longer side. */
export const longEdge = (size: ImageSize): number => Math.max(size.width, size.height)

/** `1920×1080 px` */
export const formatSize = (size: ImageSize): string => `${size.width}×${size.height} px`
