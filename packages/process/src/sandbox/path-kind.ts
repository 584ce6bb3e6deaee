// What stands at a path, for the sandbox's mounts (a folder and a file are bound differently) and its
// placeholders (a file where a folder should be stops the walk).
import { lstat, stat } from 'node:fs/promises'

export type PathKind = 'dir' | 'file'

/**
 * `dir` for a folder, `file` for anything else, undefined when nothing is there. `links`: `follow`
 * reports what a final symbolic link points to (a dangling link is nothing); `own` reports the link
 * itself, which counts as a file.
 */
export async function pathKind(path: string, links: 'follow' | 'own'): Promise<PathKind | undefined> {
  try {
    return (await (links === 'follow' ? stat : lstat)(path)).isDirectory() ? 'dir' : 'file'
  } catch {
    return undefined
  }
}
