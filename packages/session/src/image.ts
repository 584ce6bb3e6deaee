// Image content (docs/decisions/0255-image-content.md): an image travels in the log as one block whose
// bytes are base64 text written once, in the event that brought it, beside their SHA-256 and size. The
// projections send that text as it is (never re-encoded per request), and everything that only wants
// words — hooks, transcripts, summaries, the TUI — reads the short note `imageNote` gives instead.
import { createHash } from 'node:crypto'
import type { ContentBlock, ImageBlock } from './events.ts'

/** `image/<subtype>`, as MCP and the providers name image types. */
export const IMAGE_MIME = /^image\/[a-z0-9][a-z0-9.+-]{0,63}$/
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const SHA256 = /^[0-9a-f]{64}$/

/** An image block from base64 text; undefined when the type or the text is not an image's. */
export function imageBlock(mimeType: string, base64: string): ImageBlock | undefined {
  if (!IMAGE_MIME.test(mimeType) || base64.length % 4 !== 0 || !BASE64.test(base64)) return undefined
  const bytes = Buffer.from(base64, 'base64')
  return {
    type: 'image',
    mimeType,
    data: base64,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  }
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
