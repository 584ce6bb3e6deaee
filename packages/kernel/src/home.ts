// tack's home folder, resolved in ONE place (80-cli.md §3; docs/decisions/0015-tack-home.md): `$TACK_HOME`
// when set, else `<home>/.tack`. A relative `TACK_HOME` resolves against the working folder, as a shell
// user expects of any path variable — it is never silently ignored. Dependency-free (node: only), so the
// CLI, the bridges and the store share it; agent-dice, a standalone npm package, keeps an identical copy
// (`agent-dice/src/host/env.ts` `tackHome`) whose parity a test checks.
import { mkdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

export interface TackHomeOptions {
  /** Resolves a relative `TACK_HOME`; default the process's working folder. */
  readonly cwd?: string
  /** The user's home folder; default `env.HOME`, else the OS home. */
  readonly userHome?: string
}

const nonBlank = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== '' ? value : undefined

/** The absolute path of tack's home folder for `env` (`TACK_HOME`; empty or blank means unset). */
export function resolveTackHome(
  env: Readonly<Record<string, string | undefined>> = process.env,
  opts: TackHomeOptions = {},
): string {
  const configured = nonBlank(env.TACK_HOME)
  if (configured) return resolve(opts.cwd ?? process.cwd(), configured)
  return join(opts.userHome ?? nonBlank(env.HOME) ?? homedir(), '.tack')
}

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
