// Image content (docs/decisions/0255-image-content.md): an image travels in the log as one block whose
// bytes are base64 text written once, in the event that brought it, beside their SHA-256 and size. The
// projections send that text as it is (never re-encoded per request), and everything that only wants
// words — hooks, transcripts, summaries, the TUI — reads the short note `imageNote` gives instead.
import { createHash } from 'node:crypto'
import type { ContentBlock, ImageBlock } from './events.ts'

/**
 * The image types every provider tack speaks takes (Anthropic, OpenAI and the compatible servers agree
 * on these four). An image of another type stays a note: once in the log, an image goes out with every
 * later request, and one the provider refuses would fail them all.
 */
export const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const SHA256 = /^[0-9a-f]{64}$/

/** The type the bytes' signature shows, among the four kept. */
export function sniff(bytes: Buffer): string | undefined {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1')
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a)
    return 'image/png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp'
  return undefined
}

/**
 * An image block from base64 text; undefined unless the declared type is an image's and the bytes are
 * a PNG, JPEG, GIF or WebP. The block's type is the one the bytes show (a provider refuses an image
 * whose declared type is not its own), whatever the source declared.
 */
export function imageBlock(mimeType: string, base64: string): ImageBlock | undefined {
  if (!mimeType.startsWith('image/') || base64.length % 4 !== 0 || !BASE64.test(base64)) return undefined
  const bytes = Buffer.from(base64, 'base64')
  const shown = sniff(bytes)
  if (!shown) return undefined
  return {
    type: 'image',
    mimeType: shown,
    data: base64,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  }
}

/** An image block from a file's bytes; undefined unless they are a PNG, JPEG, GIF or WebP. */
export function imageBlockOfBytes(bytes: Uint8Array): ImageBlock | undefined {
  return imageBlock(
    'image/*',
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  )
}

/** True when `block` has an image block's shape (its hash is not recomputed). */
export function isImageBlock(block: unknown): block is ImageBlock {
  if (typeof block !== 'object' || block === null) return false
  const b = block as Record<string, unknown>
  return (
    b.type === 'image' &&
    typeof b.mimeType === 'string' &&
    IMAGE_MIME.test(b.mimeType) &&
    typeof b.data === 'string' &&
    typeof b.sha256 === 'string' &&
    SHA256.test(b.sha256) &&
    Number.isSafeInteger(b.bytes) &&
    (b.bytes as number) >= 0
  )
}

/** `12 KB`, `840 B`, `1.5 MB`: a size for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** What stands for an image where only words go: `[Image: image/png, 1234 bytes]` plus `why` when given. */
export function imageNote(block: Pick<ImageBlock, 'mimeType' | 'bytes'>, why?: string): string {
  return `[Image: ${block.mimeType}, ${block.bytes} bytes${why ? `, ${why}` : ''}]`
}

/** A block's words: its text, or the note for an image. */
export function blockText(block: ContentBlock): string {
  return block.type === 'text' ? block.text : imageNote(block)
}

/** The words of `content`, blocks joined by newlines (images as notes). */
export function contentText(content: readonly ContentBlock[]): string {
  return content.map(blockText).join('\n')
}

/** The image blocks of `content`. */
export function imagesOf(content: readonly ContentBlock[]): ImageBlock[] {
  return content.filter((block): block is ImageBlock => block.type === 'image')
}
