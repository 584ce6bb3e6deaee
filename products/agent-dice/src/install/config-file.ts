// Reading and writing the agents' hook config files (R26). Invalid JSON is refused and the file left
// untouched; a write goes through a temp file and a rename, and a symlinked file is written through
// to its target so the link survives.
import { lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { CliErrorCode } from '../cli/errors.ts'
import { writeFileAtomic } from '../store/atomic.ts'

export class InstallError extends Error {
  override readonly name = 'InstallError'
  readonly code: CliErrorCode
  /** Printed without the `Error: ` prefix (the purge refusal's exact wording). */
  readonly bare: boolean
  constructor(message: string, code: CliErrorCode = 'io_error', bare = false) {
    super(message)
    this.code = code
    this.bare = bare
  }
}

export type JsonObject = Record<string, unknown>

export interface ConfigRead {
  exists: boolean
  value: JsonObject
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
export const notModified = (path: string, reason: string) =>
  new InstallError(`${path}: ${reason}; not modified`)

/** The parsed file; a missing file reads as `fallback`. */
export function readConfig(path: string, fallback: () => JsonObject): ConfigRead {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, value: fallback() }
    throw notModified(path, reasonOf(error))
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw notModified(path, `invalid JSON (${reasonOf(error)})`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw notModified(path, 'not a JSON object')
  return { exists: true, value: value as JsonObject }
}

/** The file a write to `path` must replace: the final target of a symlink chain, else `path`. */
export function writeTargetOf(path: string): string {
  let current = path
  for (let hops = 0; hops < 40; hops++) {
    let stat: ReturnType<typeof lstatSync>
    try {
      stat = lstatSync(current)
    } catch {
      return current
    }
    if (!stat.isSymbolicLink()) return current
    try {
      return realpathSync(current)
    } catch {
      // A dangling link: follow it by hand so the write creates its target.
      current = resolve(dirname(current), readlinkSync(current))
    }
  }
  return current
}

/** Two-space JSON plus a newline, written atomically through any symlink. */
export function writeConfig(path: string, value: JsonObject): void {
  try {
    writeFileAtomic(writeTargetOf(path), `${JSON.stringify(value, null, 2)}\n`)
  } catch (error) {
    throw notModified(path, reasonOf(error))
  }
}

/** Structural equality of parsed JSON values (key order included, so a reorder is a change). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
