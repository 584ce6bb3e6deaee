// Opening the file a tool names: existence, kind and binary checks with the tools' error codes.
import type { Stats } from 'node:fs'
import { type FileHandle, open, stat } from 'node:fs/promises'
import { ToolFailure } from '@tack/tools'
import { BINARY_SNIFF_BYTES, looksBinary } from './text.ts'
import type { ResolvedPath } from './workspace.ts'

/** Stats `path.real`; `NOT_FOUND` when missing, `IS_DIRECTORY` for a folder. */
export async function statFile(path: ResolvedPath): Promise<Stats> {
  let info: Stats
  try {
    info = await stat(path.real)
  } catch (error) {
    if (isMissing(error)) throw notFound(path)
    throw error
  }
  if (info.isDirectory()) {
    throw new ToolFailure('IS_DIRECTORY', `${path.requested} is a directory, not a file.`)
  }
  // A FIFO or a device would block or never end: only regular files are read or written.
  if (!info.isFile()) {
    throw new ToolFailure('NOT_A_FILE', `${path.requested} is not a regular file (a pipe, socket or device).`)
  }
  return info
}

export function notFound(path: ResolvedPath): ToolFailure {
  return new ToolFailure('NOT_FOUND', `${path.requested} does not exist.`)
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** Reads up to the first 8 KiB of an open file. */
export async function readHead(handle: FileHandle): Promise<Uint8Array> {
  const buffer = Buffer.alloc(BINARY_SNIFF_BYTES)
  const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0)
  return buffer.subarray(0, bytesRead)
}

/**
 * Opens a text file for reading: `NOT_FOUND`, `IS_DIRECTORY`, `NOT_A_FILE`, `BINARY_FILE` (a NUL in
 * the first 8 KiB).
 */
export async function openText(path: ResolvedPath): Promise<{ handle: FileHandle; stat: Stats }> {
  await statFile(path) // before opening: opening a FIFO would block
  let handle: FileHandle
  try {
    handle = await open(path.real, 'r')
  } catch (error) {
    if (isMissing(error)) throw notFound(path)
    throw error
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) {
      throw new ToolFailure('NOT_A_FILE', `${path.requested} is not a regular file.`)
    }
    if (looksBinary(await readHead(handle))) {
      throw new ToolFailure(
        'BINARY_FILE',
        `${path.requested} is a binary file (it has a NUL byte in its first 8 KiB).`,
      )
    }
    return { handle, stat: info }
  } catch (error) {
    await handle.close()
    throw error
  }
}
