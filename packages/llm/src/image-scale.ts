// Scaling a prompt's image down to the pixel bound (docs/decisions/0285-user-images.md). Pure
// JavaScript codecs — fast-png and jpeg-js — so the tarball tack ships needs no native build or
// per-platform package; this module is imported only when an image is past the bound (plugin.ts), never at
// start-up. GIF and WebP have no codec here: such an image past the bound is refused instead.
// Each output pixel is the mean of the source pixels its box covers (a box filter: no aliasing from
// skipped pixels when shrinking, and one pass over the source).
import { type ImageBlock, imageBlockOfBytes, imageBlockSize } from '@tack/session'
import { convertIndexedToRgb, decode as decodePng, encode as encodePng } from 'fast-png'
import jpeg from 'jpeg-js'

interface Pixels {
  readonly width: number
  readonly height: number
  /** 8 bits a sample, `channels` samples a pixel, rows top to bottom. */
  readonly data: Uint8Array
  readonly channels: number
}

/** JPEG quality of a scaled JPEG: high, since the image was a photo or screenshot someone chose to send. */
const JPEG_QUALITY = 90

/**
 * `image` scaled so its longer side is `maxLongEdge`, in its own type; undefined when it is neither PNG
 * nor JPEG, has more than `maxPixels` pixels (decoding it would take too much memory), or does not decode.
 */
export function scaleImage(
  image: ImageBlock,
  maxLongEdge: number,
  maxPixels: number,
): ImageBlock | undefined {
  const size = imageBlockSize(image)
  if (!size || size.width * size.height > maxPixels) return undefined
  const bytes = Buffer.from(image.data, 'base64')
  try {
    if (image.mimeType === 'image/png') {
      const source = pngPixels(bytes)
      if (!source) return undefined
      const scaled = boxScale(source, maxLongEdge)
      return imageBlockOfBytes(
        encodePng({
          width: scaled.width,
          height: scaled.height,
          data: scaled.data,
          channels: scaled.channels,
          depth: 8,
        }),
      )
    }
    if (image.mimeType === 'image/jpeg') {
      const decoded = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: Math.ceil(maxPixels / 1_000_000),
      })
      const scaled = boxScale({ ...decoded, channels: 4 }, maxLongEdge)
      return imageBlockOfBytes(jpeg.encode(scaled, JPEG_QUALITY).data)
    }
  } catch {
    // a corrupt image behind a valid header: refused by the caller like one it cannot scale
  }
  return undefined
}

/** A PNG's pixels at 8 bits a sample (palette images expanded); undefined for 1, 2 or 4-bit grey. */
function pngPixels(bytes: Uint8Array): Pixels | undefined {
  const png = decodePng(bytes)
  if (png.palette) {
    const data = convertIndexedToRgb(png)
    return { width: png.width, height: png.height, data, channels: data.length / (png.width * png.height) }
  }
  if (png.depth === 8)
    return { width: png.width, height: png.height, data: png.data as Uint8Array, channels: png.channels }
  if (png.depth === 16) {
    const wide = png.data as Uint16Array
    const data = new Uint8Array(wide.length)
    for (let i = 0; i < wide.length; i++) data[i] = (wide[i] as number) >> 8
    return { width: png.width, height: png.height, data, channels: png.channels }
  }
  return undefined
}

/** `source` shrunk so its longer side is `maxLongEdge` (each side at least 1 px), by box averaging. */
export function boxScale(source: Pixels, maxLongEdge: number): Pixels {
  const { width, height, channels, data } = source
  const factor = maxLongEdge / Math.max(width, height)
  const w = Math.max(1, Math.round(width * factor))
  const h = Math.max(1, Math.round(height * factor))
  const out = new Uint8Array(w * h * channels)
  const sums = new Float64Array(w * channels)
  const counts = new Float64Array(w)
  // the source column each output column starts at (the last one ends at the source's width)
  const xStart = Array.from({ length: w + 1 }, (_, x) => Math.floor((x * width) / w))
  for (let y = 0; y < h; y++) {
    sums.fill(0)
    counts.fill(0)
    const y0 = Math.floor((y * height) / h)
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * height) / h))
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * width * channels
      for (let x = 0; x < w; x++) {
        const x0 = xStart[x] as number
        const x1 = Math.max(x0 + 1, xStart[x + 1] as number)
        for (let sx = x0; sx < x1; sx++) {
          const at = row + sx * channels
          for (let c = 0; c < channels; c++) sums[x * channels + c] += data[at + c] as number
        }
        counts[x] += x1 - x0
      }
    }
    for (let x = 0; x < w; x++)
      for (let c = 0; c < channels; c++)
        out[(y * w + x) * channels + c] = Math.round(
          (sums[x * channels + c] as number) / (counts[x] as number),
        )
  }
  return { width: w, height: h, data: out, channels }
}
