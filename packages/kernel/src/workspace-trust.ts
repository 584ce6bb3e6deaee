// Workspace trust (80-cli.md §4a.2; docs/decisions/0013-workspace-trust.md): ONE record of the folders
// whose project config, project hooks (Claude and Codex) and project plugins may take effect. It lives
// in `$TACK_HOME/trusted-workspaces.json` (0600, the folder 0700), keyed by each folder's real path; a
// folder is trusted when it or one of its ancestors is recorded. The Claude bridge's earlier store
// (`claude-project-trust.json`, written by `tack hooks trust --project`) is read as part of it, so a
// folder trusted before keeps its trust.
import { chmodSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { makeTackHome } from './home.ts'
import { replacePrivateFile } from './private-files.ts'

export const WORKSPACE_TRUST_FILE = 'trusted-workspaces.json'
/** The Claude bridge's store before trust was one notion; read, and cleaned on revoke. */
export const LEGACY_CLAUDE_TRUST_FILE = 'claude-project-trust.json'

export interface TrustedWorkspace {
  readonly path: string
  readonly trustedAt: string
}

type Records = Record<string, { trustedAt: string }>

/** The key a folder is trusted under: its real path (symlinks resolved) when it exists. */
export function workspaceKey(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return resolve(dir)
  }
}

function readRecords(path: string, field: 'workspaces' | 'projects'): Records {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
    const records = value?.[field]
    if (records && typeof records === 'object' && !Array.isArray(records)) {
      const out: Records = {}
      for (const [key, entry] of Object.entries(records as Record<string, unknown>)) {
        const at = (entry as { trustedAt?: unknown } | null)?.trustedAt
        out[key] = { trustedAt: typeof at === 'string' ? at : '' }
      }
      return out
    }
  } catch {
    // Missing or unreadable: it trusts nothing (fail closed).
  }
  return {}
}

function writeRecords(path: string, field: 'workspaces' | 'projects', records: Records): void {
  const dir = dirname(path)
  // Only a folder tack made gets its mode forced.
  if (makeTackHome(dir)) chmodSync(dir, 0o700)
  replacePrivateFile(path, `${JSON.stringify({ version: 1, [field]: records }, null, 2)}\n`)
}

function allRecords(tackHome: string): Records {
  return {
    ...readRecords(join(tackHome, LEGACY_CLAUDE_TRUST_FILE), 'projects'),
    ...readRecords(join(tackHome, WORKSPACE_TRUST_FILE), 'workspaces'),
  }
}

/** The recorded folder that makes `dir` trusted (itself or its nearest trusted ancestor), if any. */
export function trustedRootOf(dir: string, tackHome: string): string | undefined {
  const records = allRecords(tackHome)
  let at = workspaceKey(dir)
  for (;;) {
    if (Object.hasOwn(records, at)) return at
    const up = dirname(at)
    if (up === at) return undefined
    at = up
  }
}

export function isWorkspaceTrusted(dir: string, tackHome: string): boolean {
  return trustedRootOf(dir, tackHome) !== undefined
}

/** Records `dir` as trusted (idempotent); returns its key and whether it was already recorded. */
export function trustWorkspace(
  dir: string,
  tackHome: string,
  now: Date = new Date(),
): { path: string; already: boolean } {
  const path = join(tackHome, WORKSPACE_TRUST_FILE)
  const records = readRecords(path, 'workspaces')
  const key = workspaceKey(dir)
  if (Object.hasOwn(records, key)) return { path: key, already: true }
  records[key] = { trustedAt: now.toISOString() }
  writeRecords(path, 'workspaces', records)
  return { path: key, already: false }
}

/** Removes `dir`'s own record (an ancestor's stays); returns whether there was one. */
export function revokeWorkspaceTrust(dir: string, tackHome: string): boolean {
  const key = workspaceKey(dir)
  let removed = false
  for (const [file, field] of [
    [WORKSPACE_TRUST_FILE, 'workspaces'],
    [LEGACY_CLAUDE_TRUST_FILE, 'projects'],
  ] as const) {
    const path = join(tackHome, file)
    const records = readRecords(path, field)
    if (!Object.hasOwn(records, key)) continue
    delete records[key]
    writeRecords(path, field, records)
    removed = true
  }
  return removed
}

/** Every recorded folder, sorted by path. */
export function listTrustedWorkspaces(tackHome: string): TrustedWorkspace[] {
  return Object.entries(allRecords(tackHome))
    .map(([path, r]) => ({ path, trustedAt: r.trustedAt }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
