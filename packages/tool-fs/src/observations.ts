// Read-before-edit (TL-13). `edit`, and `write` over an existing file, need the agent to have read or
// written that file in this loop instance with its content unchanged since. Observations are kept per
// agent object (a resumed session gets a new Agent, so nothing survives resume) and per real path.
import type { Stats } from 'node:fs'
import type { ToolAgent } from '@tack/tools'
import { ToolFailure } from '@tack/tools'
import { sha256 } from './text.ts'

/**
 * What was seen. A whole-file read or a write keeps the content hash (a later check compares
 * content, so a touched but unchanged file is not stale); a streamed partial read keeps size and
 * mtime only, because hashing a huge file to show its first lines would defeat streaming.
 */
export interface Fingerprint {
  readonly size: number
  readonly mtimeMs: number
  readonly hash?: string
}

export class Observations {
  readonly #byAgent = new WeakMap<object, Map<string, Fingerprint>>()
  /** Calls without an agent (a bare registry) share one observer: this plugin instance. */
  readonly #noAgent = {}

  record(agent: ToolAgent | undefined, real: string, fingerprint: Fingerprint): void {
    const key = agent ?? this.#noAgent
    let seen = this.#byAgent.get(key)
    if (!seen) this.#byAgent.set(key, (seen = new Map()))
    seen.set(real, fingerprint)
  }

  get(agent: ToolAgent | undefined, real: string): Fingerprint | undefined {
    return this.#byAgent.get(agent ?? this.#noAgent)?.get(real)
  }

  /** Throws `FS_NOT_OBSERVED` or `FS_STALE` unless `current` is what the agent last saw. */
  requireFresh(agent: ToolAgent | undefined, real: string, shown: string, current: Fingerprint): void {
    const seen = this.get(agent, real)
    if (!seen) {
      throw new ToolFailure(
        'FS_NOT_OBSERVED',
        `${shown} has not been read in this session yet. Read it first, then change it.`,
      )
    }
    const same =
      seen.hash !== undefined && current.hash !== undefined
        ? seen.hash === current.hash
        : seen.size === current.size && seen.mtimeMs === current.mtimeMs
    if (!same) {
      throw new ToolFailure(
        'FS_STALE',
        `${shown} has changed since it was last read. Read it again, then change it.`,
      )
    }
  }
}

export function fingerprintOf(stat: Stats, bytes?: Uint8Array): Fingerprint {
  return { size: stat.size, mtimeMs: stat.mtimeMs, ...(bytes && { hash: sha256(bytes) }) }
}
