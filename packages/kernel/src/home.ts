// tack's home folder (80-cli.md §3; docs/decisions/0015-tack-home.md): `$TACK_HOME` when set (a relative
// value against the working folder), else `<home>/.tack`. The resolver itself is the dependency-free
// `tack-home` package (docs/decisions/0215-one-tack-home-resolver.md), which the products agent-dice and
// agent-state import too; it is re-exported here so tack's packages keep one import. This module adds the
// questions only tack asks: a plugin's data folder, and making the home folder owner-only.
import { mkdirSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { resolveTackHome, type TackHomeOptions } from 'tack-home'

export { resolveTackHome, type TackHomeOptions }

const nonBlank = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== '' ? value : undefined

/**
 * The folder a plugin keeps its files in: its `dataDir` setting when one is given (a relative one against
 * `opts.cwd`), else tack's home. The store, the hook bridges and the mod host all ask this one question.
 */
export function dataDirOf(
  dataDir: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  opts: TackHomeOptions = {},
): string {
  const configured = nonBlank(dataDir)
  return configured ? resolve(opts.cwd ?? process.cwd(), configured) : resolveTackHome(env, opts)
}

const MKDIR_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'this file system does not allow new folders there',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
}

/** tack's home folder cannot be used: the message names the folder and why, for one line on stderr. */
export class TackHomeError extends Error {
  override readonly name = 'TackHomeError'
}

/**
 * Makes sure `home` is a folder, creating it and its missing parents owner-only (0700) one level at a
 * time. True when it created `home` itself. Throws a `TackHomeError` naming the folder and the reason
 * when it cannot: a part of the path that is a file (`TACK_HOME=/dev/null/x`), a place where folders
 * cannot be made (`/proc/foo`: Node's recursive mkdir spins there forever, which is why this does not
 * use it), no permission.
 */
export function makeTackHome(home: string): boolean {
  return makeOwnerOnlyFolder(home, {
    what: `tack's home folder ${home}`,
    fix: 'set TACK_HOME to a folder you can write',
  })
}

/** How a folder that cannot be made is named in the error, and the fix offered. */
export interface FolderWording {
  readonly what: string
  readonly fix: string
}

/**
 * `makeTackHome` for any folder tack keeps data in (a session store moved by `plugins.store.dataDir`):
 * the same level-by-level 0700 creation and one-line `TackHomeError`, worded by `wording`.
 */
export function makeOwnerOnlyFolder(home: string, wording: FolderWording): boolean {
  const missing: string[] = []
  let dir = home
  let info = statSync(dir, { throwIfNoEntry: false })
  while (!info) {
    missing.unshift(dir)
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
    info = statSync(dir, { throwIfNoEntry: false })
  }
  const { what: where, fix } = wording
  if (info && !info.isDirectory()) {
    throw new TackHomeError(
      dir === home
        ? `${where} is not a folder; ${fix}`
        : `${where} cannot be created: ${dir} is not a folder; ${fix}`,
    )
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: 0o700 })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EEXIST' && statSync(level, { throwIfNoEntry: false })?.isDirectory()) continue
      const why = MKDIR_ERRORS[code ?? ''] ?? code ?? (error as Error).message
      throw new TackHomeError(`${where} cannot be created: ${why} (making ${level}); ${fix}`)
    }
  }
  return missing.length > 0
}
