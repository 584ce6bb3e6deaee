// The project trust store (40-hooks.md B1, 80-cli.md §7): interactive sessions run project-level hooks
// (`<workspace>/.claude/settings*.json`) only once the folder is trusted, recorded by `tack hooks trust
// --project` in `<dataDir>/claude-project-trust.json`. Headless sessions do not consult it (Claude
// Code's `-p` treats the folder as trusted).
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export const PROJECT_TRUST_FILE = 'claude-project-trust.json'

interface TrustFile {
  version: 1
  projects: Record<string, { trustedAt: string }>
}

/** The key a folder is trusted under: its real path (symlinks resolved) when it exists. */
export function projectKey(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return resolve(dir)
  }
}

function read(dataDir: string): TrustFile {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, PROJECT_TRUST_FILE), 'utf8')) as Partial<TrustFile>
    if (
      value &&
      typeof value.projects === 'object' &&
      value.projects !== null &&
      !Array.isArray(value.projects)
    ) {
      return { version: 1, projects: value.projects }
    }
  } catch {
    // Missing or unreadable: nothing is trusted.
  }
  return { version: 1, projects: {} }
}

function write(dataDir: string, file: TrustFile): void {
  const path = join(dataDir, PROJECT_TRUST_FILE)
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`)
  renameSync(tmp, path)
}

export function isProjectTrusted(dir: string, dataDir: string): boolean {
  return Object.hasOwn(read(dataDir).projects, projectKey(dir))
}

/** Records `dir` as trusted (idempotent). `dataDir` is tack's data folder (`$TACK_HOME`). */
export function trustProject(dir: string, dataDir: string, now: Date = new Date()): void {
  const file = read(dataDir)
  const key = projectKey(dir)
  if (Object.hasOwn(file.projects, key)) return
  file.projects[key] = { trustedAt: now.toISOString() }
  write(dataDir, file)
}

/** Removes `dir`'s trust; returns whether it was trusted. */
export function untrustProject(dir: string, dataDir: string): boolean {
  const file = read(dataDir)
  const key = projectKey(dir)
  if (!Object.hasOwn(file.projects, key)) return false
  delete file.projects[key]
  write(dataDir, file)
  return true
}
