// An image file read into an image block (docs/decisions/0285-user-images.md): `tack run --image`, a
// path pasted in the TUI and the `read` tool all open files this way, so each says the same thing
// about a file that is missing, unreadable or no image. The type is the one the bytes' signature shows,
// never the name's extension.
import { readFile } from 'node:fs/promises'
import type { ImageBlock } from './events.ts'
import { imageBlockOfBytes } from './image.ts'

/** Names an image file's type would end with (`.png`, `.jpg`, …): where a caller looks for image paths. */
export const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i

/** The block, or why the file gives none (`no such file`, `not a PNG, JPEG, GIF or WebP image`, …). */
export async function readImageFile(path: string): Promise<{ image: ImageBlock } | { problem: string }> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const problem =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a folder, not an image file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'not readable (permission denied)'
            : `not readable (${code ?? (error as Error).message})`
    return { problem }
  }
  const image = imageBlockOfBytes(bytes)
  return image ? { image } : { problem: 'not a PNG, JPEG, GIF or WebP image (by its first bytes)' }
}
