// Claude Code depth (R17): user prompts in the JSONL transcript, found under
// `<claude dir>/projects/<slug>/`.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { claudeDir, type HostEnvironment } from '../host/env.ts'
import { countJsonLines } from './lines.ts'

/** A line counts when `type === "user"` and `toolUseResult` is falsy (tool results are not prompts). */
export function countClaudeUserTurns(path: string, chunkSize?: number): number {
  return countJsonLines(
    path,
    '"user"',
    (v) => {
      const entry = v as { type?: unknown; toolUseResult?: unknown } | null
      return entry?.type === 'user' && !entry.toolUseResult
    },
    chunkSize,
  )
}

/** Claude Code's slug (every char outside `[A-Za-z0-9]` → `-`), then the public one (`/`, `_` → `-`). */
export function projectSlugs(dir: string): string[] {
  return [...new Set([dir.replace(/[^A-Za-z0-9]/g, '-'), dir.replace(/[/_]/g, '-')])]
}

/** Candidate project folders for the working folder (logical `PWD` first, then the cwd). */
export function projectDirs(e: HostEnvironment): string[] {
  const root = join(claudeDir(e), 'projects')
  const folders = [...new Set([e.env.PWD, e.cwd].filter((d): d is string => !!d))]
  return [...new Set(folders.flatMap(projectSlugs))].map((slug) => join(root, slug))
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * The transcript of `sessionId` (`<id>.jsonl`, or nothing: a known session never borrows another's
 * transcript), else the newest `*.jsonl` without `agent-` in its name.
 */
export function findClaudeTranscript(e: HostEnvironment, sessionId?: string): string | undefined {
  const dirs = projectDirs(e)
  if (sessionId) return dirs.map((d) => join(d, `${sessionId}.jsonl`)).find(isFile)
  for (const dir of dirs) {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      continue
    }
    let newest: { path: string; mtime: number } | undefined
    for (const name of names) {
      if (!name.endsWith('.jsonl') || name.includes('agent-') || name.startsWith('.')) continue
      const path = join(dir, name)
      try {
        const st = statSync(path)
        if (st.isFile() && (!newest || st.mtimeMs > newest.mtime)) newest = { path, mtime: st.mtimeMs }
      } catch {
        // Vanished while listing.
      }
    }
    if (newest) return newest.path
  }
  return undefined
}
