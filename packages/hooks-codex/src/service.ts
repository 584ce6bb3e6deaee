// Service `ctx.hooksCodex`: what the CLI (`tack hooks list`, `tack hooks trust`, `tack doctor`) and
// other plugins use of the bridge.
import type { CodexHookListing, CodexHookRegistry, CodexHookView, CodexTrustResult } from './registry.ts'

export class HooksCodexService {
  readonly #registry: CodexHookRegistry
  readonly #warn: (message: string) => void

  constructor(registry: CodexHookRegistry, warn: (message: string) => void) {
    this.#registry = registry
    this.#warn = warn
  }

  /** Where `trust()` records hashes (`<tack data dir>/codex-hook-trust.json`). */
  get storePath(): string {
    return this.#registry.storePath
  }

  /** Every discovered hook with its source, whether it will run, and why. */
  list(): readonly CodexHookListing[] {
    return this.#registry.list()
  }

  /** Load-time problems: files and entries skipped, untrusted hooks, trust off. */
  warnings(): readonly string[] {
    return this.#registry.warnings()
  }

  /**
   * Records the current hash of every trustable hook, or of the hooks named by `keys` (their trust
   * keys, as `list()` shows them). They run from now on.
   */
  trust(keys?: readonly string[]): Promise<CodexTrustResult> {
    return this.#registry.trust(keys)
  }

  /**
   * Skips the hooks `predicate` selects (a plugin providing natively what a discovered hook does);
   * each is logged once with `reason` and listed as skipped. Returns the undo.
   */
  skip(predicate: (hook: CodexHookView) => boolean, reason: string): () => void {
    return this.#registry.skip(predicate, reason, this.#warn)
  }
}

declare module 'cordis' {
  interface Context {
    hooksCodex: HooksCodexService
  }
}
