// `read` of an image file (85-skills-and-commands.md I2, docs/decisions/0285-user-images.md): a PNG,
// JPEG, GIF or WebP — told by its first bytes, never by its name — comes back as an image block after a
// line naming it, so a model that takes images sees it (one that does not gets the projection's note,
// docs/decisions/0255-image-content.md). Past `readImageMaxBytes` or `readImageMaxLongEdge` the file is
// not read and the answer says why: once in the log, an image goes out with every later request.
import { type FileHandle, open } from 'node:fs/promises'
import {
  type Content,
  formatBytes,
  formatSize,
  imageBlockOfBytes,
  imageSize,
  imageTypeOf,
  longEdge,
} from '@tack/session'
import type { FsToolsConfig } from '../config.ts'
import { readHead, statFile } from '../files.ts'
import type { ResolvedPath } from '../workspace.ts'

/** Bytes that hold every header `imageSize` reads but a JPEG's (whose frame may follow large metadata). */
const HEADER_BYTES = 64 * 1024

type ImageLimits = Pick<FsToolsConfig, 'readImageMaxBytes' | 'readImageMaxLongEdge'>

/** The answer for `path` when it is an image file; undefined for any other file (read as text then). */
export async function readImageAt(path: ResolvedPath, config: ImageLimits): Promise<Content | undefined> {
  await statFile(path) // before opening: opening a FIFO would block
  let handle: FileHandle
  try {
    handle = await open(path.real, 'r')
  } catch {
    return undefined // the text path opens it again and reports the failure in its words
  }
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) return undefined
    return await readImage(handle, await readHead(handle), stat.size, path.requested, config)
  } finally {
    await handle.close()
  }
}

/**
 * The answer for an image file, or undefined when `handle` holds no PNG, JPEG, GIF or WebP. `head` is
 * the file's first bytes, `size` its length.
 */
export async function readImage(
  handle: FileHandle,
  head: Uint8Array,
  size: number,
  name: string,
  config: ImageLimits,
): Promise<Content | undefined> {
  const mimeType = imageTypeOf(Buffer.from(head))
  if (!mimeType) return undefined
  const what = `${name}: ${mimeType} image, ${formatBytes(size)}`
  if (size > config.readImageMaxBytes)
    return `[${what}: not read, past the read tool's readImageMaxBytes (${formatBytes(config.readImageMaxBytes)}).]`
  const bytes = size <= head.length ? head.subarray(0, size) : await readAll(handle, size)
  const pixels = imageSize(bytes.subarray(0, mimeType === 'image/jpeg' ? bytes.length : HEADER_BYTES))
  if (!pixels) return `[${what}; its header gives no size: not read.]`
  if (longEdge(pixels) > config.readImageMaxLongEdge)
    return `[${what}, ${formatSize(pixels)}: not read, past the read tool's readImageMaxLongEdge (${config.readImageMaxLongEdge} px on its longer side).]`
  const image = imageBlockOfBytes(bytes)
  if (!image) return undefined
  return [{ type: 'text', text: `[${what}, ${formatSize(pixels)}.]` }, image]
}

async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size)
  let at = 0
  while (at < size) {
    const { bytesRead } = await handle.read(buffer, at, size - at, at)
    if (bytesRead === 0) break
    at += bytesRead
  }
  return buffer.subarray(0, at)
}
