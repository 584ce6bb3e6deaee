// `$.fs` (65-mod-host.md requirement 11): relative paths resolve against the session workspace, 4 MiB
// per read or write, network paths refused, writes atomic and owner-only (a mod's files are its session's
// state: docs/decisions/0145-private-files.md), and writes to one path land in call order.
import { lstat, readdir, readFile, stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { replacePrivateFileAsync } from '@tack/kernel/private-files'
import { checkSize } from './limits.ts'

function pathOf(cwd: string, path: unknown): string {
  if (typeof path !== 'string' || path === '')
    throw new TypeError('$.fs: the path must be a non-empty string')
  if (path.startsWith('//') || path.startsWith('\\\\')) throw new Error(`$.fs: network path refused: ${path}`)
  return isAbsolute(path) ? path : resolve(cwd, path)
}

export function createFs(cwd: () => string) {
  // Two overlapping atomic writes of one file race their renames, so the older text could land last;
  // a mod that writes a file again expects its last call to win. Writes of one path queue per instance.
  const queues = new Map<string, Promise<unknown>>()
  const inOrder = (file: string, write: () => Promise<void>): Promise<void> => {
    const run = (queues.get(file) ?? Promise.resolve()).then(write, write)
    const tail = run.catch(() => {})
    queues.set(file, tail)
    void tail.then(() => {
      if (queues.get(file) === tail) queues.delete(file)
    })
    return run
  }
  return {
    async read(path: string, _opts?: { as?: 'text' }): Promise<string> {
      const file = pathOf(cwd(), path)
      checkSize(`$.fs.read(${path})`, (await stat(file)).size)
      return await readFile(file, 'utf8')
    },
    async write(path: string, text: string): Promise<void> {
      if (typeof text !== 'string') throw new TypeError('$.fs.write: text must be a string')
      checkSize(`$.fs.write(${path})`, Buffer.byteLength(text))
      const file = pathOf(cwd(), path)
      await inOrder(file, () => replacePrivateFileAsync(file, text))
    },
    async exists(path: string): Promise<boolean> {
      try {
        await lstat(pathOf(cwd(), path))
        return true
      } catch {
        return false
      }
    },
    async list(path: string): Promise<string[]> {
      return (await readdir(pathOf(cwd(), path))).sort()
    },
    async stat(path: string) {
      const s = await lstat(pathOf(cwd(), path))
      const type = s.isFile()
        ? 'file'
        : s.isDirectory()
          ? 'directory'
          : s.isSymbolicLink()
            ? 'symlink'
            : 'other'
      return { type, size: s.size, mtimeMs: s.mtimeMs }
    },
  }
}
