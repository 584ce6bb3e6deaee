// An image file read into an image block (docs/decisions/0285-user-images.md): `tack run --image`, a
// path pasted in the TUI and the `read` tool all open files this way, so each says the same thing
// about a file that is missing, unreadable or no image. The type is the one the bytes' signature shows,
// never the name's extension. The path may come from a stranger's repository (a pasted path, a FIFO named
// `shot.png`): it is opened non-blocking and read only when it is a regular file within a ceiling, so a
// FIFO cannot hang tack and /dev/zero cannot fill its memory.
import { constants } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import type { ImageBlock } from './events.ts'
import { imageBlockOfBytes } from './image.ts'

/** Names an image file's type would end with (`.png`, `.jpg`, …): where a caller looks for image paths. */
export const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i

/**
 * Bytes of the largest image file read at all: far past what a prompt may carry (plugins.llm.images.maxBytes
 * is at most 20 MiB, checked on admission after scaling), a ceiling only against a file without end.
 */
export const IMAGE_FILE_MAX_BYTES = 256 * 1024 * 1024

/** The block, or why the file gives none (`no such file`, `not a PNG, JPEG, GIF or WebP image`, …). */
export async function readImageFile(path: string): Promise<{ image: ImageBlock } | { problem: string }> {
  let bytes: Buffer
  let handle: FileHandle | undefined
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    const info = await handle.stat()
    if (info.isDirectory()) return { problem: 'a folder, not an image file' }
    if (!info.isFile()) return { problem: 'not a regular file (a FIFO, a device or a socket)' }
    if (info.size > IMAGE_FILE_MAX_BYTES)
      return { problem: `larger than ${IMAGE_FILE_MAX_BYTES / (1024 * 1024)} MiB, not read` }
    bytes = await handle.readFile()
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
  } finally {
    await handle?.close()
  }
  const image = imageBlockOfBytes(bytes)
  return image ? { image } : { problem: 'not a PNG, JPEG, GIF or WebP image (by its first bytes)' }
}
