// Temp folders for real database files, removed after each test file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

const roots: string[] = []
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** A fresh temp folder, deleted when the test file ends. */
export function tempDir(prefix = 'tack-store-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  roots.push(dir)
  return dir
}

let n = 0
/** A path for a new database file in a fresh temp folder. */
export function tempDb(name = 'sessions.db'): string {
  return join(tempDir(), `${n++}-${name}`)
}
