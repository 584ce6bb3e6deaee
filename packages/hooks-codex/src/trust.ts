// Codex's hook trust model (protocols.md §B.8, 40-hooks.md C6): a non-managed hook runs only when the
// hash recorded for its key equals the hash of its current definition. tack keeps the records in its
// own store, `<tack data dir>/codex-hook-trust.json` (Codex's `[hooks.state]` is not read), written
// by `tack hooks trust` through `trust()`.
//
//   key  = `<source path>:<event_snake>:<group index>:<handler index>`
//   hash = `sha256:` + hex SHA-256 of the canonical JSON of `{event, matcher, handler}`, with the
//          default timeout applied, so an edit to the command, matcher or timeout invalidates trust.
import { readFile } from 'node:fs/promises'
import { canonicalHash } from '@tack/kernel/canonical-json'
import { replacePrivateFileAsync } from '@tack/kernel/private-files'
import { snakeEvent } from './events.ts'
import type { CodexHookEntry } from './hooks-file.ts'

export const TRUST_STORE_FILE = 'codex-hook-trust.json'
const STORE_VERSION = 1

/** `trusted`: hashes match; `untrusted`: nothing recorded; `modified`: recorded for another definition. */
export type TrustStatus = 'trusted' | 'untrusted' | 'modified'

export function trustKey(entry: Pick<CodexHookEntry, 'source' | 'event' | 'group' | 'index'>): string {
  return `${entry.source}:${snakeEvent(entry.event)}:${entry.group}:${entry.index}`
}

// Shared with MCP server approval: one canonical form for every hash-bound trust record.
export { canonicalJson } from '@tack/kernel/canonical-json'

export function trustHash(entry: Pick<CodexHookEntry, 'event' | 'matcher' | 'handler'>): string {
  const h = entry.handler
  const identity = {
    event: snakeEvent(entry.event),
    matcher: entry.matcher ?? null,
    handler: {
      type: h.type,
      command: h.command,
      timeout: h.timeoutSec,
      async: h.async,
      statusMessage: h.statusMessage,
    },
  }
  return canonicalHash(identity)
}

/** The store's records, keyed by trust key. */
export type TrustRecords = Readonly<Record<string, string>>

export function trustStatus(records: TrustRecords, key: string, hash: string): TrustStatus {
  const recorded = records[key]
  if (recorded === undefined) return 'untrusted'
  return recorded === hash ? 'trusted' : 'modified'
}

/**
 * Reads the store. A missing file is an empty store; an unreadable or malformed one is treated as
 * empty too (nothing is trusted — the safe side) and reported in `problem`.
 */
export async function readTrustStore(path: string): Promise<{ records: TrustRecords; problem?: string }> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: {} }
    return { records: {}, problem: `cannot read ${path}: ${(error as Error).message}` }
  }
  try {
    const parsed = JSON.parse(text) as unknown
    const hooks = (parsed as { hooks?: unknown } | null)?.hooks
    if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks))
      throw new Error('no "hooks" object')
    const records: Record<string, string> = {}
    for (const [key, value] of Object.entries(hooks as Record<string, unknown>)) {
      if (typeof value === 'string' && value.startsWith('sha256:')) records[key] = value
    }
    return { records }
  } catch (error) {
    return { records: {}, problem: `${path} is not a trust store: ${(error as Error).message}` }
  }
}

/**
 * Merges `updates` into the store at `path` (read again first, so records written by another process
 * survive) and writes it atomically. Returns the records now stored.
 */
export async function writeTrustRecords(path: string, updates: TrustRecords): Promise<TrustRecords> {
  const { records: current } = await readTrustStore(path)
  const records: Record<string, string> = { ...current, ...updates }
  const sorted = Object.fromEntries(
    Object.keys(records)
      .sort()
      .map((k) => [k, records[k]]),
  )
  await replacePrivateFileAsync(
    path,
    `${JSON.stringify({ version: STORE_VERSION, hooks: sorted }, null, 2)}\n`,
  )
  return sorted
}
