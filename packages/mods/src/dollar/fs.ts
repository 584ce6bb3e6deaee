// `$.fs` (65-mod-host.md requirement 11): relative paths resolve against the session workspace, 4 MiB
// per read or write, network paths refused, writes atomic.
import { lstat, readdir, readFile, stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { writeAtomically } from './atomic-write.ts'
import { checkSize } from './limits.ts'

function pathOf(cwd: string, path: unknown): string {
  if (typeof path !== 'string' || path === '')
    throw new TypeError('$.fs: the path must be a non-empty string')
  if (path.startsWith('//') || path.startsWith('\\\\')) throw new Error(`$.fs: network path refused: ${path}`)
  return isAbsolute(path) ? path : resolve(cwd, path)
}

export function createFs(cwd: () => string) {
  return {
    async read(path: string, _opts?: { as?: 'text' }): Promise<string> {
      const file = pathOf(cwd(), path)
      checkSize(`$.fs.read(${path})`, (await stat(file)).size)
      return await readFile(file, 'utf8')
    },
    async write(path: string, text: string): Promise<void> {
      if (typeof text !== 'string') throw new TypeError('$.fs.write: text must be a string')
      checkSize(`$.fs.write(${path})`, Buffer.byteLength(text))
      await writeAtomically(pathOf(cwd(), path), text)
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
