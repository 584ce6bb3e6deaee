// R22: which folders readers look in, reading the snapshots there, and each one's liveness. Readers
// never write: not a lock, not a cache, not a repaired file.
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { resolveTackHome } from 'tack-home'

export type Liveness = 'live' | 'stale' | 'ended' | 'unreadable'

export type Snapshot = {
  schema: number
  session_id: string
  host: string
  version: string | null
  cwd: string
  session_started_ms: number | null
  state: string
  tool: string | null
  state_since_ms: number
  heartbeat_ms: number
  heartbeat_interval_ms: number
  signals: Record<string, { value: string; at_ms: number }>
  [extra: string]: unknown
}

export type Entry =
  | { liveness: 'unreadable'; file: string }
  | { liveness: Exclude<Liveness, 'unreadable'>; file: string; snapshot: Snapshot; age_ms: number }

export const KNOWN_SCHEMA = 1

/**
 * R22: `--dir` folders, else `AGENT_STATE_DIR` (`:`-separated), else the default folders that exist:
 * Claude Code's and tack's. tack's home is tack's own answer (`tack-home`, so a relative `TACK_HOME`
 * resolves against `cwd` exactly as the tack run that wrote the state resolved it;
 * docs/decisions/0215-one-tack-home-resolver.md).
 */
export function folders(dirs: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): string[] {
  if (dirs.length > 0) return dirs
  const fromEnv = (env.AGENT_STATE_DIR ?? '').split(':').filter(Boolean)
  if (fromEnv.length > 0) return fromEnv
  const home = env.HOME || homedir()
  const tackHome = resolveTackHome(env, { cwd, userHome: home })
  return [join(home, '.claude', 'agent-state'), join(tackHome, 'agent-state')].filter((d) => existsSync(d))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function parse(text: string): Snapshot | null {
  try {
    const value = JSON.parse(text) as Snapshot
    const ok =
      typeof value === 'object' &&
      value !== null &&
      typeof value.session_id === 'string' &&
      typeof value.state === 'string' &&
      typeof value.heartbeat_ms === 'number'
    return ok ? value : null
  } catch {
    return null
  }
}

/** One file: parsed, or retried once after 50 ms (a writer without atomic renames), then `null`. */
async function readOne(file: string): Promise<Snapshot | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await sleep(50)
    const text = await readFile(file, 'utf8').catch(() => null)
    const snapshot = text === null ? null : parse(text)
    if (snapshot !== null) return snapshot
  }
  return null
}

export type ReadOptions = {
  now: number
  /** `--stale-after`, in ms; otherwise 2.5 heartbeat intervals (R12). */
  staleAfterMs?: number
  /** Called once per newer-schema file (R26): the caller warns on stderr once. */
  onNewerSchema?: (file: string, schema: number) => void
}

export function livenessOf(s: Snapshot, now: number, staleAfterMs?: number): Exclude<Liveness, 'unreadable'> {
  if (s.state === 'ended') return 'ended'
  const interval = typeof s.heartbeat_interval_ms === 'number' ? s.heartbeat_interval_ms : 30_000
  return now - s.heartbeat_ms > (staleAfterMs ?? 2.5 * interval) ? 'stale' : 'live'
}

export async function readEntries(dirs: string[], options: ReadOptions): Promise<Entry[]> {
  const entries: Entry[] = []
  for (const dir of dirs) {
    const names = await readdir(dir).catch(() => [] as string[])
    const files = names.filter((n) => n.endsWith('.json')).map((n) => join(dir, n))
    const read = await Promise.all(files.map(async (file) => [file, await readOne(file)] as const))
    for (const [file, snapshot] of read) {
      if (snapshot === null) {
        entries.push({ liveness: 'unreadable', file })
        continue
      }
      if (typeof snapshot.schema === 'number' && snapshot.schema > KNOWN_SCHEMA)
        options.onNewerSchema?.(file, snapshot.schema)
      const liveness = livenessOf(snapshot, options.now, options.staleAfterMs)
      entries.push({ liveness, file, snapshot, age_ms: Math.max(0, options.now - snapshot.heartbeat_ms) })
    }
  }
  return entries
}
