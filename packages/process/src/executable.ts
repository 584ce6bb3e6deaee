// Finding a program the way a shell would, for the launchers tack looks up itself (bubblewrap, ripgrep).
import { access, constants } from 'node:fs/promises'
import { delimiter, isAbsolute, join } from 'node:path'

/** Whether `file` exists and this process may execute it. */
export async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The first executable `name` in the folders of `path` (a PATH value), or undefined. Empty and relative
 * folders are skipped: they name the current folder, where a repository could plant its own `name`.
 */
export async function findOnPath(name: string, path: string): Promise<string | undefined> {
  for (const folder of path.split(delimiter)) {
    if (!folder || !isAbsolute(folder)) continue
    const candidate = join(folder, name)
    if (await isExecutable(candidate)) return candidate
  }
  return undefined
}
