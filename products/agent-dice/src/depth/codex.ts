// Codex depth (R18): user messages in the session's rollout JSONL, found by session id under
// `<codex root>/sessions/YYYY/MM/DD/` when the hook payload has no `transcript_path`.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { countJsonLines } from './lines.ts'

/**
 * A line counts when it is a `response_item` whose payload is a user `message`. Codex records its
 * leading environment-context bootstrap the same way, so every session starts one turn "ahead".
 */
export function countCodexUserTurns(path: string, chunkSize?: number): number {
  return countJsonLines(
    path,
    '"user"',
    (v) => {
      const entry = v as { type?: unknown; payload?: { type?: unknown; role?: unknown } } | null
      return (
        entry?.type === 'response_item' && entry.payload?.type === 'message' && entry.payload.role === 'user'
      )
    },
    chunkSize,
  )
}

const DIGITS = /^\d+$/

function digitDirsNewestFirst(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && DIGITS.test(d.name))
      .map((d) => d.name)
      .sort((a, b) => Number(b) - Number(a) || b.localeCompare(a))
  } catch {
    return []
  }
}

/** The first `rollout-*-<id>.jsonl` walking year/month/day folders newest first; `.jsonl.zst` never. */
export function findCodexRollout(codexRoot: string, sessionId: string): string | undefined {
  const root = join(codexRoot, 'sessions')
  const suffix = `-${sessionId}.jsonl`
  for (const year of digitDirsNewestFirst(root)) {
    for (const month of digitDirsNewestFirst(join(root, year))) {
      for (const day of digitDirsNewestFirst(join(root, year, month))) {
        const dir = join(root, year, month, day)
        let names: string[]
        try {
          names = readdirSync(dir)
        } catch {
          continue
        }
        const match = names
          .filter((n) => n.startsWith('rollout-') && n.endsWith(suffix))
          .sort()
          .reverse()[0]
        if (match) return join(dir, match)
      }
    }
  }
  return undefined
}
