// The discovered hooks with their trust state: what `tack hooks list` shows (source, will it run and
// why), which hooks the points may run, and `trust()` for `tack hooks trust` (80-cli.md §7, 40-hooks.md
// C6). Discovery happens once, at load; trusting updates the runnable set at once.
import { join } from 'node:path'
import {
  type DiscoveryOptions,
  discoverHooks,
  type HookSource,
  type SourceKind,
  type SourceProblem,
} from './discovery.ts'
import { NOT_FIRED_CODEX_EVENTS } from './events.ts'
import type { CodexHookEntry } from './hooks-file.ts'
import type { RunnableHook } from './runner.ts'
import {
  readTrustStore,
  TRUST_STORE_FILE,
  type TrustRecords,
  trustHash,
  trustKey,
  trustStatus,
  writeTrustRecords,
} from './trust.ts'

export type TrustMode = 'enforce' | 'off'

/**
 * Why a hook will or will not run (`workspace-untrusted`: a project-layer hook in an untrusted workspace;
 * `not-fired`: a Codex event tack never fires, `NOT_FIRED_CODEX_EVENTS`).
 */
export type CodexHookStatus =
  | 'not-fired'
  | 'trusted'
  | 'untrusted'
  | 'modified'
  | 'trust-off'
  | 'skipped'
  | 'workspace-untrusted'

/** Why project-layer hooks are held back in an untrusted workspace, and how to lift it. */
export const UNTRUSTED_WORKSPACE =
  'this workspace is not trusted: run `tack trust` in it (or pass --trust for one run)'

export interface CodexHookListing {
  /** The trust key, also the `handlerId` in `hook/*` log events. */
  readonly key: string
  readonly source: string
  readonly sourceKind: SourceKind
  readonly event: string
  readonly group: number
  readonly index: number
  readonly matcher?: string
  readonly type: string
  readonly command: string
  readonly timeoutSec: number
  /** `sha256:…` of the current definition. */
  readonly hash: string
  readonly status: CodexHookStatus
  readonly runs: boolean
  readonly reason: string
}

export interface CodexTrustResult {
  readonly storePath: string
  /** Keys whose current hash was recorded. */
  readonly trusted: readonly string[]
  /** Requested keys that name no trustable hook (unknown, or skipped for another reason). */
  readonly unknown: readonly string[]
}

export interface RegistryOptions extends DiscoveryOptions {
  readonly trust: TrustMode
  /** Whether the project layer may run at all (a workspace recorded by `tack trust`, or assumed). */
  readonly projectTrusted: boolean
  /** tack's data folder; the store is `<dataDir>/codex-hook-trust.json`. */
  readonly dataDir: string
}

interface Known {
  readonly entry: CodexHookEntry
  readonly key: string
  readonly hash: string
  readonly sourceKind: SourceKind
}

/** What a `skip` predicate is shown of a hook. */
export interface CodexHookView {
  readonly source: string
  readonly event: string
  readonly matcher?: string
  readonly type: string
  readonly command: string
  readonly timeoutSec: number
}

interface Skip {
  readonly predicate: (hook: CodexHookView) => boolean
  readonly reason: string
}

export class CodexHookRegistry {
  readonly storePath: string
  readonly #mode: TrustMode
  readonly #known: readonly Known[]
  readonly #warnings: string[]
  readonly #problems: readonly SourceProblem[]
  readonly #projectTrusted: boolean
  readonly #skips: Skip[] = []
  #records: TrustRecords

  private constructor(opts: {
    mode: TrustMode
    storePath: string
    known: readonly Known[]
    records: TrustRecords
    warnings: string[]
    problems: readonly SourceProblem[]
    projectTrusted: boolean
  }) {
    this.#problems = opts.problems
    this.#projectTrusted = opts.projectTrusted
    this.#mode = opts.mode
    this.storePath = opts.storePath
    this.#known = opts.known
    this.#records = opts.records
    this.#warnings = opts.warnings
  }

  static async load(opts: RegistryOptions): Promise<CodexHookRegistry> {
    const discovered = await discoverHooks(opts)
    const kindOf = new Map<string, SourceKind>(discovered.sources.map((s: HookSource) => [s.path, s.kind]))
    const known = discovered.entries.map((entry) => ({
      entry,
      key: trustKey(entry),
      hash: trustHash(entry),
      sourceKind: kindOf.get(entry.source) ?? 'config',
    }))
    const storePath = join(opts.dataDir, TRUST_STORE_FILE)
    const warnings = [...discovered.warnings]
    let records: TrustRecords = {}
    if (opts.trust === 'enforce' && known.some((k) => !k.entry.skip)) {
      const store = await readTrustStore(storePath)
      records = store.records
      if (store.problem)
        warnings.push(`${store.problem}; no Codex hook is trusted until \`tack hooks trust\``)
    }
    return new CodexHookRegistry({
      mode: opts.trust,
      storePath,
      known,
      records,
      warnings,
      problems: discovered.problems,
      projectTrusted: opts.projectTrusted,
    })
  }

  /** One line per problem: files and entries skipped at load, then hooks held back by trust now. */
  warnings(): readonly string[] {
    return [...this.#warnings, ...this.#trustWarnings()]
  }

  /** Hooks files skipped as a whole (with the line and column of a JSON error). */
  problems(): readonly SourceProblem[] {
    return this.#problems
  }

  list(): readonly CodexHookListing[] {
    return this.#known.map((k) => this.#listing(k))
  }

  /**
   * Skips every hook `predicate` selects, with `reason` (for a plugin that provides natively what a
   * discovered hook would do, like agent-dice's tack host). Returns the undo. Each newly skipped hook
   * is reported once through `report`.
   */
  skip(
    predicate: (hook: CodexHookView) => boolean,
    reason: string,
    report: (message: string) => void = () => {},
  ): () => void {
    const entry: Skip = { predicate, reason }
    const before = new Set(this.runnable().map((h) => h.key))
    this.#skips.push(entry)
    for (const k of this.#known) {
      if (before.has(k.key) && this.#skipOf(k) === entry) report(`${k.key} skipped: ${reason}`)
    }
    return () => {
      const at = this.#skips.indexOf(entry)
      if (at >= 0) this.#skips.splice(at, 1)
    }
  }

  /** The hooks the points may run, in config order. */
  runnable(): readonly RunnableHook[] {
    return this.#known.filter((k) => this.#listing(k).runs).map((k) => ({ entry: k.entry, key: k.key }))
  }

  /**
   * Records the current hash of every trustable hook (or of those in `keys`) in the store, so they
   * run from now on — in this process at once, in later ones from the store.
   */
  async trust(keys?: readonly string[]): Promise<CodexTrustResult> {
    const trustable = this.#known.filter((k) => !k.entry.skip)
    const byKey = new Map(trustable.map((k) => [k.key, k]))
    const chosen = keys
      ? keys.map((key) => byKey.get(key)).filter((k): k is Known => k !== undefined)
      : trustable
    const unknown = keys ? keys.filter((key) => !byKey.has(key)) : []
    const updates = Object.fromEntries(chosen.map((k) => [k.key, k.hash]))
    if (chosen.length > 0) this.#records = await writeTrustRecords(this.storePath, updates)
    return { storePath: this.storePath, trusted: chosen.map((k) => k.key), unknown }
  }

  #listing(k: Known): CodexHookListing {
    const { entry } = k
    const base = {
      key: k.key,
      source: entry.source,
      sourceKind: k.sourceKind,
      event: entry.event,
      group: entry.group,
      index: entry.index,
      ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
      type: entry.handler.type,
      command: entry.handler.command,
      timeoutSec: entry.handler.timeoutSec,
      hash: k.hash,
    }
    if (entry.skip) {
      const status = Object.hasOwn(NOT_FIRED_CODEX_EVENTS, entry.event) ? 'not-fired' : 'skipped'
      return { ...base, status, runs: false, reason: entry.skip }
    }
    const skipped = this.#skipOf(k)
    if (skipped) return { ...base, status: 'skipped', runs: false, reason: skipped.reason }
    if (k.sourceKind === 'project' && !this.#projectTrusted) {
      return { ...base, status: 'workspace-untrusted', runs: false, reason: UNTRUSTED_WORKSPACE }
    }
    if (this.#mode === 'off') {
      return {
        ...base,
        status: 'trust-off',
        runs: true,
        reason: 'trust is off: runs without a recorded hash',
      }
    }
    const status = trustStatus(this.#records, k.key, k.hash)
    switch (status) {
      case 'trusted':
        return { ...base, status, runs: true, reason: `its current hash is recorded in ${this.storePath}` }
      case 'untrusted':
        return {
          ...base,
          status,
          runs: false,
          reason: 'not trusted yet: review it and run `tack hooks trust`',
        }
      case 'modified':
        return {
          ...base,
          status,
          runs: false,
          reason: 'changed since it was trusted: review it and run `tack hooks trust` again',
        }
      default:
        return status satisfies never
    }
  }

  #skipOf(k: Known): Skip | undefined {
    const { entry } = k
    const view: CodexHookView = {
      source: entry.source,
      event: entry.event,
      ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
      type: entry.handler.type,
      command: entry.handler.command,
      timeoutSec: entry.handler.timeoutSec,
    }
    return this.#skips.find((s) => {
      try {
        return s.predicate(view)
      } catch {
        return false
      }
    })
  }

  #trustWarnings(): string[] {
    // An untrusted workspace's project hooks are reported once per run by the CLI, not here.
    const listings = this.list().filter(
      (l) => l.status !== 'skipped' && l.status !== 'not-fired' && l.status !== 'workspace-untrusted',
    )
    if (listings.length === 0) return []
    if (this.#mode === 'off') {
      return [`Codex hook trust is off: ${listings.length} hook(s) run without review`]
    }
    const held = listings.filter((l) => !l.runs)
    if (held.length === 0) return []
    return [
      `${held.length} Codex hook(s) are not trusted (new or changed) and will not run: review them with \`tack hooks list\` and trust them with \`tack hooks trust\``,
    ]
  }
}
